import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Service, startService, type TestSchool } from './support/service.js';
import { expectErrorBody } from './support/rest-assertions.js';

// Wire habit: Rails clients build `Authorization: Token token="..."` by interpolation, and a token
// read from a file or an environment variable often keeps a space or a newline at its ends.

let service: Service;
let school: TestSchool;
beforeAll(async () => {
  service = await startService();
  school = await service.school('Token School');
});
afterAll(() => service?.stop());

const token = () => school.admin.token!;

it.each([
  ['a space before the closing quote', (t: string) => `Token token="${t} "`],
  ['a space after the opening quote', (t: string) => `Token token=" ${t}"`],
  ['spaces on both sides', (t: string) => `Token token="  ${t}  "`],
  ['a tab inside the quotes', (t: string) => `Token token="${t}\t"`],
  ['the Rails options after it', (t: string) => `Token token="${t} ", nonce="def"`],
])('Token token="…" with %s is accepted', async (_, header) => {
  const res = await service.anonymous.get(`/schools/${school.id}`, { headers: { authorization: header(token()) } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.id).toBe(school.id);
});

it('on /graphql too', async () => {
  const res = await service.anonymous.request('POST', '/graphql', undefined, {
    raw: `{"query":"{ school(id: ${school.id}) { id } }"}`,
    headers: { 'content-type': 'application/json', authorization: `Token token="${token()} "` },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body.data.school.id).toBe(String(school.id));
});

it('only the ends are trimmed: a space inside the token, or blank quotes, is a 401', async () => {
  const t = token();
  expectErrorBody(await service.anonymous.get(`/schools/${school.id}`, { headers: { authorization: `Token token="${t.slice(0, 5)} ${t.slice(5)}"` } }), 401);
  expectErrorBody(await service.anonymous.get(`/schools/${school.id}`, { headers: { authorization: 'Token token="   "' } }), 401);
});
