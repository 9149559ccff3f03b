import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mails } from '../../src/modules/mail/mail.table.js';
import { addresses } from '../../src/modules/users/address.table.js';
import { person } from '../support/identity.fixtures.js';
import { expectFieldError, expectNotFound } from '../support/rest-assertions.js';
import { type Service, type TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// People over REST beyond what the spec lists: the Edools v1 sign-in reply, POST /invitations, a person's
// addresses (`/students/:id/addresses`, `/addresses/:id`) and the admins' twin of GraphQL's admin operations.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Twins People', 'Twins People Other', (w) => ({ service, school, other } = w));

let serial = 0;
const email = () => `twins-person${++serial}-${process.pid}@example.com`;
const invitationMails = (userId: number) =>
  service.db.select({ id: mails.id }).from(mails).where(and(eq(mails.userId, userId), eq(mails.kind, 'invitation')));

describe('POST /users/sign_in (the Edools v1 reply)', () => {
  it("answers the person's fields and credentials at the top, beside today's session; realm[id] names the school", async () => {
    const student = await person(school);
    const res = await service.anonymous.post('/v1/users/sign_in.json', { user: { email: student.email, password: student.password }, realm: { id: school.id, type: 'School' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: student.id, email: student.email, school_id: school.id, type: 'Student', full_name: expect.any(String) });
    expect(res.body.credentials).toBe(res.body.access_token);
    expect(res.body).toMatchObject({ role: 'student', token_type: 'Bearer', refresh_token: expect.any(String), user: { id: student.id, email: student.email } });
    // The credentials work as the v1 clients send them.
    const client = service.client(null, { authorization: `Token token="${res.body.credentials}"` });
    expect((await client.get(`/students/${student.id}`)).status).toBe(200);
  });

  it('a wrong password is 401, and a realm of another school signs no one in', async () => {
    const student = await person(school);
    expect((await service.anonymous.post('/users/sign_in', { user: { email: student.email, password: 'not-the-password' }, realm: { id: school.id } })).status).toBe(401);
    expect((await service.anonymous.post('/users/sign_in', { user: { email: student.email, password: student.password }, realm: { id: other.id } })).status).toBe(401);
  });
});

describe('POST /invitations', () => {
  it('a new e-mail makes a student and queues the invitation (201, Location); inviting again resends (200)', async () => {
    const address = email();
    const res = await school.admin.post('/invitations', { invitation: { first_name: 'Ana', last_name: 'Lima', email: address } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(Number), full_name: 'Ana Lima', email: address, type: 'Student', created: true, mail_id: expect.any(Number) });
    expect(res.headers.location).toBe(`/students/${res.body.id}`);
    const again = await school.admin.post('/v1/invitations.json', { invitation: { email: address.toUpperCase(), first_name: 'Ignored' } }, { encoding: 'form' });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id: res.body.id, full_name: 'Ana Lima', created: false });
    expect(again.headers.location).toBeUndefined();
    expect(await invitationMails(res.body.id)).toHaveLength(2);
  });

  it('a collaborator of the school is invited again, not made a student', async () => {
    const collaborator = await person(school, 'Collaborator');
    const res = await school.admin.post('/invitations', { invitation: { email: collaborator.email } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: collaborator.id, type: 'Collaborator', created: false });
  });

  it('a new person without name and e-mail is one 422 naming both; a mismatched confirmation is 422', async () => {
    const res = await school.admin.post('/invitations', { invitation: { phone: '123' } });
    expect(res.status, res.text).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(['email']));
    const named = await school.admin.post('/invitations', { invitation: { email: email() } });
    expectFieldError(named, 422, 'full_name');
    expectFieldError(await school.admin.post('/invitations', { invitation: { email: email(), first_name: 'A', password: 'secret-pass', password_confirmation: 'other' } }), 422, 'password_confirmation');
  });

  it('a student may not invite (403); another school invites its own person, not ours', async () => {
    const student = await person(school);
    const client = await service.token('student', school.id, student.id);
    expect((await client.post('/invitations', { invitation: { email: email(), first_name: 'X' } })).status).toBe(403);
    // The same e-mail in another school is a new person there.
    const theirs = await other.admin.post('/invitations', { invitation: { email: student.email, first_name: 'Twin' } });
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.body.id).not.toBe(student.id);
  });
});

describe('addresses', () => {
  const address = { street: 'Abc', number: 123, complement: 'Cde', district: 'Saint Rose', city: 'Niteroi', state: 'RJ', zip_code: '24210000' };

  it('POST /students/:id/addresses creates (201, Location); GET, PUT and DELETE /addresses/:id; the person lists them', async () => {
    const student = await person(school);
    const res = await school.admin.post(`/v1/students/${student.id}/addresses.json`, { address });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(Number), ...address, number: '123', user_id: student.id, school_id: school.id, country: null });
    expect(res.headers.location).toBe(`/addresses/${res.body.id}`);
    const shown = await school.admin.get(`/addresses/${res.body.id}`);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toMatchObject({ street: 'Abc', zip_code: '24210000' });
    const updated = await school.admin.put(`/addresses/${res.body.id}`, { address: { country: 'BR', complement: '' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ country: 'BR', complement: null, street: 'Abc' });
    const listed = await school.admin.get(`/students/${student.id}/addresses`);
    expect(listed.body.map((a: { id: number }) => a.id)).toEqual([res.body.id]);
    const graphql = await school.admin.graphql('query ($id: ID!) { student(id: $id) { addresses { id city } } }', { id: String(student.id) });
    expect(graphql.data.student.addresses).toEqual([{ id: String(res.body.id), city: 'Niteroi' }]);
    expect((await school.admin.delete(`/addresses/${res.body.id}`)).status).toBe(204);
    expectNotFound(await school.admin.get(`/addresses/${res.body.id}`));
  });

  it('street, city and zip_code missing are one 422 naming all three; a cleared one on update is 422', async () => {
    const student = await person(school);
    const res = await school.admin.post(`/students/${student.id}/addresses`, { address: { number: '1' } });
    expect(res.status, res.text).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['city', 'street', 'zip_code']);
    const created = await school.admin.post(`/students/${student.id}/addresses`, { address });
    expectFieldError(await school.admin.put(`/addresses/${created.body.id}`, { address: { city: '' } }), 422, 'city', 'blank');
  });

  it('a student manages its own addresses only; another school reaches none (404)', async () => {
    const me = await person(school);
    const someone = await person(school);
    const client = await service.token('student', school.id, me.id);
    const mine = await client.post(`/students/${me.id}/addresses`, { address });
    expect(mine.status, mine.text).toBe(201);
    const theirs = (await school.admin.post(`/students/${someone.id}/addresses`, { address })).body;
    expect((await client.get(`/addresses/${mine.body.id}`)).status).toBe(200);
    expectNotFound(await client.get(`/addresses/${theirs.id}`));
    expectNotFound(await client.put(`/addresses/${theirs.id}`, { address: { city: 'X' } }));
    expectNotFound(await client.delete(`/addresses/${theirs.id}`));
    expectNotFound(await client.post(`/students/${someone.id}/addresses`, { address }));
    expectNotFound(await client.get(`/students/${someone.id}/addresses`));
    expectNotFound(await other.admin.get(`/addresses/${theirs.id}`));
    expectNotFound(await other.admin.post(`/students/${someone.id}/addresses`, { address }));
    expectNotFound(await other.admin.delete(`/addresses/${theirs.id}`));
    expect(await service.db.select().from(addresses).where(eq(addresses.userId, someone.id))).toHaveLength(1);
  });

  it("the person's erasure deletes them, and the export lists them", async () => {
    const student = await person(school);
    await school.admin.post(`/students/${student.id}/addresses`, { address });
    const exported = await school.admin.get(`/users/${student.id}/personal_data`);
    expect(exported.status, exported.text).toBe(200);
    expect(JSON.stringify(exported.body)).toContain('24210000');
    const erased = await school.admin.delete(`/users/${student.id}/personal_data`);
    expect(erased.status, erased.text).toBeLessThan(300);
    expect(await service.db.select().from(addresses).where(eq(addresses.userId, student.id))).toEqual([]);
  });
});

describe('/admins (the twin of the admin operations)', () => {
  it('an admin lists, creates, shows and updates admins in the v1 user form; a collaborator may read, not create', async () => {
    const res = await school.admin.post('/admins', { user: { first_name: 'Root', last_name: 'Two', email: email() } });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/admins/${res.body.id}`);
    expect((await school.admin.get('/admins')).body.map((a: { id: number }) => a.id)).toContain(res.body.id);
    expect((await school.admin.put(`/admins/${res.body.id}`, { user: { full_name: 'Root Three' } })).body.full_name).toBe('Root Three');
    const collaborator = await person(school, 'Collaborator');
    const client = await service.token('collaborator', school.id, collaborator.id);
    expect((await client.get(`/admins/${res.body.id}`)).status).toBe(200);
    expect((await client.post('/admins', { user: { full_name: 'X', email: email() } })).status).toBe(403);
    expectNotFound(await other.admin.get(`/admins/${res.body.id}`));
  });
});
