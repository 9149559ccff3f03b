import { describe, expect, it } from 'vitest';
import { type Service, type TestSchool } from '../support/service.js';
import { expectFieldError, expectNotFound } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// The Edools v1 clients' people routes beyond the spec: /students and /collaborators with the
// `user[...]` form (first and last name, password and its confirmation), onto the users module's operations.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Edools People', 'Edools People Other', (w) => ({ service, school, other } = w));

let serial = 0;
const user = (fields: Record<string, unknown> = {}) => ({
  user: { first_name: 'Ana', last_name: 'Souza', email: `edools-person${++serial}@example.com`, password: 'secret-pass', password_confirmation: 'secret-pass', ...fields },
});

describe.each([
  ['students', 'student'],
  ['collaborators', 'collaborator'],
] as const)('/%s', (segment, role) => {
  it('POST creates from the v1 form (201, Location, id, full_name, email); a form-encoded body too', async () => {
    const body = user();
    const res = await school.admin.post(`/${segment}`, body);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(Number), full_name: 'Ana Souza', email: body.user.email, school_id: school.id });
    expect(res.headers.location).toBe(`/${segment}/${res.body.id}`);
    const form = await school.admin.post(`/v1/${segment}.json`, user({ first_name: 'Bia', last_name: '' }), { encoding: 'form' });
    expect(form.status, form.text).toBe(201);
    expect(form.body.full_name).toBe('Bia');
  });

  it('a password_confirmation that does not match is 422 naming it, and nothing is created', async () => {
    const body = user({ password_confirmation: 'other-pass' });
    const res = await school.admin.post(`/${segment}`, body);
    expectFieldError(res, 422, 'password_confirmation');
    const found = await school.admin.get(`/${segment}?email=${encodeURIComponent(body.user.email)}`);
    expect(found.body).toEqual([]);
  });

  it('the operation judges the rest: a missing e-mail and name are one 422 naming both', async () => {
    const res = await school.admin.post(`/${segment}`, { user: { password: 'secret-pass' } });
    expect(res.status, res.text).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(['full_name', 'email']));
  });

  it('GET lists and shows, PUT renames from first and last name; under /api and with .json', async () => {
    const created = (await school.admin.post(`/${segment}`, user())).body;
    const list = await school.admin.get(`/api/${segment}.json?page=1&per_page=100`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((p: { id: number }) => p.id)).toContain(created.id);
    const shown = await school.admin.get(`/v1/${segment}/${created.id}.json`);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toMatchObject({ id: created.id, full_name: 'Ana Souza', email: created.email });
    const updated = await school.admin.put(`/${segment}/${created.id}`, { user: { first_name: 'Carla', last_name: 'Lima' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.full_name).toBe('Carla Lima');
    expect(updated.headers.location).toBe(`/${segment}/${created.id}`);
  });

  it("another school's person is 404 on show and update", async () => {
    const theirs = (await other.admin.post(`/${segment}`, user())).body;
    expectNotFound(await school.admin.get(`/${segment}/${theirs.id}`));
    expectNotFound(await school.admin.put(`/${segment}/${theirs.id}`, { user: { first_name: 'X' } }));
  });

  it('DELETE answers 405 with the methods the path has (removing a person is the erasure)', async () => {
    const created = (await school.admin.post(`/${segment}`, user())).body;
    const res = await school.admin.delete(`/${segment}/${created.id}`);
    expect(res.status, res.text).toBe(405);
    expect(res.headers.allow).toContain('GET');
    expect(res.headers.allow).not.toContain('DELETE');
  });

  it(`a ${role} reaches only itself; a student credential is refused the staff-only routes`, async () => {
    const me = (await school.admin.post(`/${segment}`, user())).body;
    const someone = (await school.admin.post(`/${segment}`, user())).body;
    const client = await service.token(role, school.id, me.id);
    expect((await client.get(`/${segment}/${me.id}`)).status).toBe(200);
    const student = role === 'student' ? client : await service.token('student', school.id, (await school.admin.post('/students', user())).body.id);
    expect((await student.get(`/${segment}`)).status).toBe(403);
    expect((await student.post(`/${segment}`, user())).status).toBe(403);
    if (role === 'student') expectNotFound(await client.get(`/${segment}/${someone.id}`));
    else expect((await student.get(`/${segment}/${someone.id}`)).status).toBe(403);
  });
});
