import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationSuggestions } from '../src/modules/integrations/integration.table.js';
import { fixtures } from './messages.fixtures.js';
import { type Service, startService, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';

// POST /integrations/suggestions: any credential sends one; the spec gives no payload, so the
// fields come in a `suggestion` hash or at the top level.

let service: Service;
let school: TestSchool;
let f: ReturnType<typeof fixtures>;

beforeAll(async () => {
  service = await startService();
  school = await service.school('Suggestions School');
  f = fixtures(service);
});
afterAll(() => service?.stop());

describe('POST /integrations/suggestions', () => {
  async function suggestionRow(id: number) {
    const [r] = await service.db.select().from(integrationSuggestions).where(eq(integrationSuggestions.id, id));
    return r;
  }

  it('given top-level fields as JSON, then 201 with the suggestion stored for the school', async () => {
    const res = await school.admin.post('/integrations/suggestions', { name: 'Slack', description: 'Post new enrollments', url: 'https://slack.com' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ school_id: school.id, name: 'Slack', description: 'Post new enrollments', url: 'https://slack.com' });
    expect(res.headers.location).toBeUndefined();
    expect(await suggestionRow(res.body.id)).toMatchObject({ schoolId: school.id, name: 'Slack' });
  });

  it('given a suggestion hash as a form body, from a student credential, then 201', async () => {
    const { client } = await f.studentClient(school);
    const res = await client.post('/integrations/suggestions', { suggestion: { name: 'Discord', url: 'http://discord.com/app' } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'Discord', url: 'http://discord.com/app', description: null });
  });

  it('from a platform credential, then the suggestion has no school', async () => {
    const res = await service.platform.post('/integrations/suggestions', { suggestion: { name: 'Platform idea' } }, { encoding: 'multipart' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.school_id).toBeNull();
  });

  it('given no name or a url that is not http(s), then 422; without a credential 401', async () => {
    const before = await service.db.select().from(integrationSuggestions);
    const noName = await school.admin.post('/integrations/suggestions', { description: 'nameless' });
    expectFieldError(noName, 422, 'name', 'blank');
    const badUrl = await school.admin.post('/integrations/suggestions', { name: 'FTP', url: 'ftp://files.example.com' });
    expectFieldError(badUrl, 422, 'url', 'invalid');
    const notUrl = await school.admin.post('/integrations/suggestions', { name: 'X', url: 'not a url' });
    expectFieldError(notUrl, 422, 'url', 'invalid');
    expectErrorBody(await service.anonymous.post('/integrations/suggestions', { name: 'Anon' }), 401);
    expect(await service.db.select().from(integrationSuggestions)).toEqual(before);
  });
});
