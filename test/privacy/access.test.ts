import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/modules/users/user.table.js';
import { person } from '../support/forums.fixtures.js';
import { ERASE, EXPORT, privacyFixtures } from '../support/privacy.fixtures.js';
import type { Client, Reply, Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Who may export and erase a person's data: the person itself (student, collaborator), the school's
// admin and the platform for anyone of the school; another person of the school gets a 404 (an
// `own` row), an app a 403, another school's admin a 404, no credential a 401. A refusal changes nothing.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Access School', 'Other Access School', (w) => ({ service, school, other } = w));
const f = privacyFixtures(world);

const path = (id: number) => `/users/${id}/personal_data`;
const userRow = async (id: number) => (await service.db.select().from(users).where(eq(users.id, id)))[0];
const code = (res: { errors?: { extensions?: { code?: string } }[] }) => res.errors?.[0]?.extensions?.code;

/** Both faces, both operations refused with `status` (REST) and `gqlCode` (GraphQL), the person untouched. */
async function expectRefused(client: Client, userId: number, status: number, gqlCode: string) {
  const before = await userRow(userId);
  const replies: Reply[] = [await client.get(path(userId)), await client.delete(path(userId))];
  expect(replies.map((r) => r.status)).toEqual([status, status]);
  expect(code(await client.graphql(EXPORT, { userId: String(userId) }))).toBe(gqlCode);
  expect(code(await client.graphql(ERASE, { userId: String(userId) }))).toBe(gqlCode);
  expect(await userRow(userId)).toEqual(before);
}

describe('who may export and erase a person', () => {
  it('given a student, then it reaches only itself: another student of the school is a 404', async () => {
    const ana = await f.student(school, 'Ana Own');
    const bruno = await f.student(school, 'Bruno Other');
    await expectRefused(ana.client, bruno.id, 404, 'NOT_FOUND');
    await expectRefused(ana.client, school.adminId, 404, 'NOT_FOUND');
    const own = await ana.client.get(path(ana.id));
    expect(own.status, own.text).toBe(200);
    expect(own.body.person.fullName).toBe(ana.identity.fullName);
  });

  it('given a collaborator, then it reaches only itself', async () => {
    const collaborator = await person(service, school, 'Collaborator', 'Cora Teacher');
    const student = await f.student(school, 'Dora Student');
    await expectRefused(collaborator.client, student.id, 404, 'NOT_FOUND');
    const own = await collaborator.client.get(path(collaborator.user.id));
    expect(own.status, own.text).toBe(200);
    expect(own.body.person).toMatchObject({ id: collaborator.user.id, type: 'Collaborator', fullName: 'Cora Teacher' });
    const erased = await collaborator.client.delete(path(collaborator.user.id));
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body).toMatchObject({ user_id: collaborator.user.id, already_erased: false });
    expect((await collaborator.client.get(path(collaborator.user.id))).status).toBe(401);
  });

  it("given another school's admin, then the school's people are 404s", async () => {
    const ana = await f.student(school, 'Ana Isolated');
    await expectRefused(other.admin, ana.id, 404, 'NOT_FOUND');
  });

  it('given an app credential, then 403; given no credential, then 401', async () => {
    const ana = await f.student(school, 'Ana Apps');
    await expectRefused(await service.token('app', school.id), ana.id, 403, 'FORBIDDEN');
    await expectRefused(service.anonymous, ana.id, 401, 'UNAUTHENTICATED');
  });

  it('given the platform, then it exports anyone and erases in the school it names', async () => {
    const ana = await f.student(school, 'Ana Platform');
    expect((await service.platform.get(path(ana.id))).status).toBe(200);
    const unnamed = await service.platform.delete(path(ana.id));
    expect(unnamed.status, unnamed.text).toBe(400);
    await expectRefused(service.platform.forSchool(other.id), ana.id, 404, 'NOT_FOUND');
    const erased = await service.platform.forSchool(school.id).delete(path(ana.id));
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body).toMatchObject({ user_id: ana.id, already_erased: false, revoked_tokens: 1 });
  });

  it('given ids that name no person, then 404', async () => {
    for (const id of ['0', 'abc', '2147483647', '99999999999']) {
      expect((await school.admin.get(`/users/${id}/personal_data`)).status).toBe(404);
      expect((await school.admin.delete(`/users/${id}/personal_data`)).status).toBe(404);
    }
  });
});
