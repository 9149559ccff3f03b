import { beforeAll, describe, expect, it } from 'vitest';
import {
  answer,
  createForum,
  eventsOf,
  expectNoWrite,
  notificationsWithUrl,
  person,
  question,
  questionRow,
  section,
} from './support/forums.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError, expectNotFound } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// REST face of ForumQuestion:
//   GET /forum_sections/:forum_section_id/forum_questions, /users/:user_id/forum_questions, /forum_questions
//   POST /forum_sections/:forum_section_id/forum_questions
//   GET/PUT/PATCH/DELETE /forum_questions/:id; PUT/PATCH /forum_questions/:id/move (and ?action=move)

let service: Service;
let school: TestSchool;
let other: TestSchool;
let student: { user: { id: number }; client: Client };
let collaborators: { user: { id: number }; client: Client }[];
let generalSection: { id: number };
let siblingSection: { id: number };
let otherForumSection: { id: number };
let foreignSection: { id: number };

twoSchools('Question School', 'Other Question School', async (w) => {
  ({ service, school, other } = w);
  student = await person(service, school, 'Student');
  collaborators = [await person(service, school, 'Collaborator'), await person(service, school, 'Collaborator')];
  await person(service, other, 'Collaborator');
  generalSection = await section(school.admin, school.forumId, { title: 'General' });
  siblingSection = await section(school.admin, school.forumId, { title: 'Sibling' });
  otherForumSection = await section(school.admin, await createForum(school.admin), { title: 'Elsewhere' });
  foreignSection = await section(other.admin, other.forumId, { title: 'Foreign' });
});

const post = (sectionId: number, body: unknown, options?: Parameters<Client['post']>[2], client: Client = student.client) =>
  client.post(`/forum_sections/${sectionId}/forum_questions`, body, options);

describe('POST /forum_sections/:forum_section_id/forum_questions', () => {
  it("given a student's question, then 201 with it, a Location, the student as author, one notification per collaborator and admin, and one event", async () => {
    const res = await post(generalSection.id, { forum_question: { title: ' How do I start? ', description: 'Where is lesson one?' } });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/forum_questions/${res.body.id}`);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      school_id: school.id,
      forum_section_id: generalSection.id,
      user_id: student.user.id,
      title: 'How do I start?',
      description: 'Where is lesson one?',
      fixed: false,
      answered_by_admin: false,
    });
    expect(await questionRow(service, res.body.id)).toMatchObject({ userId: student.user.id, forumSectionId: generalSection.id });
    const notified = await notificationsWithUrl(service, `/forum_questions/${res.body.id}`);
    const staff = [school.adminId, ...collaborators.map((c) => c.user.id)].sort((a, b) => a - b);
    expect(notified.map((n) => n.userId)).toEqual(staff);
    expect(notified.every((n) => n.schoolId === school.id && n.read === false && /How do I start\?/.test(n.text ?? ''))).toBe(true);
    const events = await eventsOf(service, 'forum_question.created', res.body.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ schoolId: school.id, subjectType: 'ForumQuestion', payload: { id: res.body.id, user_id: student.user.id } });
  });

  it('given a question by a collaborator, then the other collaborators and the admin are notified, not the author', async () => {
    const res = await post(generalSection.id, { forum_question: { title: 'Staff question', description: 'd' } }, {}, collaborators[0].client);
    expect(res.status, res.text).toBe(201);
    const notified = await notificationsWithUrl(service, `/forum_questions/${res.body.id}`);
    expect(notified.map((n) => n.userId).sort((a, b) => a - b)).toEqual([school.adminId, collaborators[1].user.id].sort((a, b) => a - b));
  });

  it('given created_at, then the row keeps that time and the callbacks are skipped: no notification, no event', async () => {
    const res = await post(generalSection.id, { forum_question: { title: 'Imported', description: 'from the old forum', created_at: '2024-03-05T10:20:30Z' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.created_at).toBe('2024-03-05T10:20:30.000Z');
    expect((await questionRow(service, res.body.id)).createdAt.toISOString()).toBe('2024-03-05T10:20:30.000Z');
    expect(await notificationsWithUrl(service, `/forum_questions/${res.body.id}`)).toEqual([]);
    expect(await eventsOf(service, 'forum_question.created', res.body.id)).toEqual([]);
  });

  it.each([
    [true, true],
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
    [false, false],
  ])('given fixed %j, then fixed is %s', async (fixed, expected) => {
    const res = await post(generalSection.id, { forum_question: { title: 'Pinned?', description: 'd', fixed } }, {}, school.admin);
    expect(res.status, res.text).toBe(201);
    expect(res.body.fixed).toBe(expected);
  });

  it('given a form-urlencoded body with bracket names, then 201', async () => {
    const res = await post(generalSection.id, { forum_question: { title: 'Form', description: 'by form', fixed: '1' } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ title: 'Form', fixed: true, user_id: student.user.id });
  });

  it('given a multipart body, then 201', async () => {
    const res = await post(generalSection.id, { forum_question: { title: 'Multipart', description: 'by multipart' } }, { encoding: 'multipart' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.title).toBe('Multipart');
  });

  it('given the section in the body as forum_question_id or forum_section_id, then they are accepted and the path wins', async () => {
    const a = await post(generalSection.id, { forum_question: { title: 'a', description: 'd', forum_question_id: siblingSection.id } });
    const b = await post(generalSection.id, { forum_question: { title: 'b', description: 'd', forum_section_id: siblingSection.id } });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a.body.forum_section_id, b.body.forum_section_id]).toEqual([generalSection.id, generalSection.id]);
  });

  it('given a staff credential naming a user of the school, then that user is the author', async () => {
    const res = await post(generalSection.id, { forum_question: { title: 'On behalf', description: 'd', user_id: student.user.id } }, {}, school.admin);
    expect(res.status, res.text).toBe(201);
    expect(res.body.user_id).toBe(student.user.id);
  });

  it('given an app credential with no user, then the question has no author', async () => {
    const app = await service.token('app', school.id);
    const res = await post(generalSection.id, { forum_question: { title: 'From an app', description: 'd', created_at: '2025-01-01T00:00:00Z' } }, {}, app);
    expect(res.status, res.text).toBe(201);
    expect(res.body.user_id).toBeNull();
  });

  describe('refused: nothing written (no question, no notification, no event)', () => {
    it('given no title and no description, then 422 with both blank', async () => {
      const res = await expectNoWrite(service, () => post(generalSection.id, { forum_question: { fixed: true } }));
      expectErrorBody(res, 422);
      expect(res.body.details).toEqual({ title: [{ error: 'blank' }], description: [{ error: 'blank' }] });
    });

    it('given a student naming another user, then 403 (user_id forbidden)', async () => {
      const res = await expectNoWrite(service, () =>
        post(generalSection.id, { forum_question: { title: 't', description: 'd', user_id: collaborators[0].user.id } }),
      );
      expectFieldError(res, 403, 'user_id', 'forbidden');
    });

    it("given a staff credential naming another school's user, then 422 user_id not_found", async () => {
      const res = await expectNoWrite(service, () =>
        post(generalSection.id, { forum_question: { title: 't', description: 'd', user_id: other.adminId } }, {}, school.admin),
      );
      expectFieldError(res, 422, 'user_id', 'not_found');
    });

    it.each([
      ['invalid JSON', undefined, { raw: '{"forum_question": [', headers: { 'content-type': 'application/json' } }],
      ['a missing resource key', { title: 'x', description: 'y' }, {}],
      ['fixed that is not a boolean', { forum_question: { title: 'x', description: 'y', fixed: 'maybe' } }, {}],
      ['a created_at that is not a time', { forum_question: { title: 'x', description: 'y', created_at: 'yesterday' } }, {}],
    ])('given %s, then 400', async (_name, body, options) => {
      expectErrorBody(await expectNoWrite(service, () => post(generalSection.id, body, options as any)), 400);
    });

    it("given another school's section, then 404", async () => {
      expectNotFound(await expectNoWrite(service, () => post(foreignSection.id, { forum_question: { title: 'x', description: 'y' } })));
    });

    it('given no credential or a wrong token, then 401', async () => {
      const body = { forum_question: { title: 'x', description: 'y' } };
      expectErrorBody(await expectNoWrite(service, () => post(generalSection.id, body, {}, service.anonymous)), 401);
      expectErrorBody(await expectNoWrite(service, () => post(generalSection.id, body, {}, service.client('Token token="nope"'))), 401);
    });
  });
});

describe('GET lists of questions with answered_by_admin', () => {
  let listSection: { id: number };
  let byAdmin: { id: number };
  let byCollaborator: { id: number };
  let byStudentOnly: { id: number };
  let unanswered: { id: number };
  let asker: { user: { id: number }; client: Client };
  beforeAll(async () => {
    listSection = await section(school.admin, school.forumId, { title: 'Lists' });
    asker = await person(service, school, 'Student');
    const imported = { created_at: '2025-02-01T00:00:00Z' };
    byAdmin = await question(asker.client, listSection.id, imported);
    byCollaborator = await question(asker.client, listSection.id, imported);
    byStudentOnly = await question(student.client, listSection.id, imported);
    unanswered = await question(asker.client, listSection.id, imported);
    await answer(school.admin, byAdmin.id);
    await answer(collaborators[0].client, byCollaborator.id);
    await answer(asker.client, byCollaborator.id);
    await answer(asker.client, byStudentOnly.id);
    await question(other.admin, foreignSection.id, imported);
  });
  const ids = (res: { body: any[] }) => res.body.map((q) => q.id);

  it('given a section, then its questions; true: answered by a collaborator or admin; false: the others (a student answer does not count)', async () => {
    const url = `/forum_sections/${listSection.id}/forum_questions`;
    const all = await student.client.get(url);
    expect(all.status, all.text).toBe(200);
    expect(ids(all)).toEqual([byAdmin.id, byCollaborator.id, byStudentOnly.id, unanswered.id]);
    expect(all.body.map((q: any) => q.answered_by_admin)).toEqual([true, true, false, false]);
    expect(ids(await student.client.get(`${url}?answered_by_admin=true`))).toEqual([byAdmin.id, byCollaborator.id]);
    expect(ids(await student.client.get(`${url}?answered_by_admin=false`))).toEqual([byStudentOnly.id, unanswered.id]);
    expect(ids(await student.client.get(`${url}?answered_by_admin=1`))).toEqual([byAdmin.id, byCollaborator.id]);
    const paged = await student.client.get(`${url}?answered_by_admin=false&page=1&per_page=1`);
    expect(ids(paged)).toEqual([byStudentOnly.id]);
    expect(paged.headers['x-total-count']).toBe('2');
  });

  it("given a user, then the questions that user wrote in the school, with the filter", async () => {
    const url = `/users/${asker.user.id}/forum_questions`;
    expect(ids(await school.admin.get(url))).toEqual([byAdmin.id, byCollaborator.id, unanswered.id]);
    expect(ids(await school.admin.get(`${url}?answered_by_admin=true`))).toEqual([byAdmin.id, byCollaborator.id]);
    expect(ids(await school.admin.get(`${url}?answered_by_admin=false`))).toEqual([unanswered.id]);
    expect((await school.admin.get(`/users/${collaborators[1].user.id}/forum_questions`)).body).toEqual([]);
  });

  it("given the top-level list, then the school's questions only, with the filter", async () => {
    const all = ids(await school.admin.get('/forum_questions'));
    expect(all).toEqual(expect.arrayContaining([byAdmin.id, byCollaborator.id, byStudentOnly.id, unanswered.id]));
    const foreignIds = ids(await other.admin.get('/forum_questions'));
    expect(foreignIds).toHaveLength(1);
    expect(all).not.toContain(foreignIds[0]);
    const answered = ids(await school.admin.get('/forum_questions?answered_by_admin=true'));
    expect(answered).toEqual([byAdmin.id, byCollaborator.id]);
    const notAnswered = ids(await school.admin.get('/forum_questions?answered_by_admin=false'));
    expect(notAnswered).toEqual(all.filter((id: number) => !answered.includes(id)));
  });

  it("given answered_by_admin that is not a boolean, another school's section or user, or no credential, then 400, 404, 404, 401", async () => {
    expectErrorBody(await school.admin.get(`/forum_questions?answered_by_admin=maybe`), 400);
    expectNotFound(await school.admin.get(`/forum_sections/${foreignSection.id}/forum_questions`));
    expectNotFound(await school.admin.get(`/users/${other.adminId}/forum_questions`));
    expectNotFound(await school.admin.get(`/users/abc/forum_questions`));
    expectErrorBody(await service.anonymous.get('/forum_questions'), 401);
  });
});

describe('GET /forum_questions/:id', () => {
  it('given a question of the school, then 200; another school\'s, 404; no credential, 401', async () => {
    const q = await question(student.client, generalSection.id);
    const res = await collaborators[0].client.get(`/forum_questions/${q.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: q.id, forum_section_id: generalSection.id, user_id: student.user.id, answered_by_admin: false });
    const foreign = await question(other.admin, foreignSection.id);
    expectNotFound(await school.admin.get(`/forum_questions/${foreign.id}`));
    expectErrorBody(await service.anonymous.get(`/forum_questions/${q.id}`), 401);
  });
});

describe('PUT/PATCH /forum_questions/:id', () => {
  it('given new fields, then 200 with the question and a Location of the show path', async () => {
    const q = await question(student.client, generalSection.id);
    const res = await student.client.put(`/forum_questions/${q.id}`, { forum_question: { title: 'Better title', description: 'More', fixed: 'true' } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/forum_questions/${q.id}`);
    expect(res.body).toMatchObject({ title: 'Better title', description: 'More', fixed: true, forum_section_id: generalSection.id });
    expect(await questionRow(service, q.id)).toMatchObject({ title: 'Better title', fixed: true });
  });

  it.each(['forum_section_id', 'forum_question_id'])('given a changed %s in the same forum, then the question moves', async (key) => {
    const q = await question(student.client, generalSection.id);
    const res = await school.admin.patch(`/forum_questions/${q.id}`, { forum_question: { [key]: siblingSection.id } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.forum_section_id).toBe(siblingSection.id);
    expect((await questionRow(service, q.id)).forumSectionId).toBe(siblingSection.id);
  });

  it('given the whole question fetched before, then read-only fields are ignored', async () => {
    const q = await question(student.client, generalSection.id);
    const fetched = (await student.client.get(`/forum_questions/${q.id}`)).body;
    const res = await student.client.put(`/forum_questions/${q.id}`, { forum_question: { ...fetched, created_at: '2001-01-01T00:00:00Z', answered_by_admin: true, title: 'Again' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ title: 'Again', created_at: fetched.created_at, answered_by_admin: false });
  });

  describe('refused: 422/403/404/400 and nothing written', () => {
    it('given a section of another forum, then 422 forum_section_id invalid', async () => {
      const q = await question(student.client, generalSection.id);
      const res = await expectNoWrite(service, () => school.admin.put(`/forum_questions/${q.id}`, { forum_question: { forum_section_id: otherForumSection.id } }));
      expectFieldError(res, 422, 'forum_section_id', 'invalid');
    });

    it("given another school's section, then 422 forum_section_id not_found", async () => {
      const q = await question(student.client, generalSection.id);
      const res = await expectNoWrite(service, () => school.admin.put(`/forum_questions/${q.id}`, { forum_question: { forum_section_id: foreignSection.id } }));
      expectFieldError(res, 422, 'forum_section_id', 'not_found');
    });

    it('given a blank title or description, then 422', async () => {
      const q = await question(student.client, generalSection.id);
      const res = await expectNoWrite(service, () => student.client.put(`/forum_questions/${q.id}`, { forum_question: { title: '', description: ' ' } }));
      expectErrorBody(res, 422);
      expect(res.body.details).toEqual({ title: [{ error: 'blank' }], description: [{ error: 'blank' }] });
    });

    it("given another student's question, then 403", async () => {
      const q = await question(school.admin, generalSection.id);
      const res = await expectNoWrite(service, () => student.client.put(`/forum_questions/${q.id}`, { forum_question: { title: 'Mine now' } }));
      expectErrorBody(res, 403);
    });

    it("given another school's question, a missing body or no credential, then 404, 400, 401", async () => {
      const foreign = await question(other.admin, foreignSection.id);
      const q = await question(student.client, generalSection.id);
      expectNotFound(await expectNoWrite(service, () => school.admin.put(`/forum_questions/${foreign.id}`, { forum_question: { title: 'x' } })));
      expectErrorBody(await expectNoWrite(service, () => school.admin.put(`/forum_questions/${q.id}`, {})), 400);
      expectErrorBody(await expectNoWrite(service, () => service.anonymous.put(`/forum_questions/${q.id}`, { forum_question: { title: 'x' } })), 401);
    });
  });
});

describe('PUT/PATCH /forum_questions/:id/move and ?action=move', () => {
  it.each([
    ['PUT', '/move', 'forum_section_id'],
    ['PATCH', '/move', 'forum_question_id'],
    ['PUT', '?action=move', 'forum_section_id'],
    ['PATCH', '?action=move', 'forum_section_id'],
  ])('given %s %s with %s of the same forum, then 200 with the moved question and a Location', async (method, suffix, key) => {
    const q = await question(student.client, generalSection.id);
    const res = await student.client.request(method, `/forum_questions/${q.id}${suffix}`, { forum_question: { [key]: siblingSection.id } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/forum_questions/${q.id}`);
    expect(res.body).toMatchObject({ id: q.id, forum_section_id: siblingSection.id });
    expect((await questionRow(service, q.id)).forumSectionId).toBe(siblingSection.id);
  });

  it('given a form body, then it moves too', async () => {
    const q = await question(student.client, generalSection.id);
    const res = await school.admin.put(`/forum_questions/${q.id}/move`, { forum_question: { forum_section_id: String(siblingSection.id) } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.forum_section_id).toBe(siblingSection.id);
  });

  describe('refused: nothing written', () => {
    let q: { id: number };
    beforeAll(async () => {
      q = await question(student.client, generalSection.id);
    });

    it('given a section of another forum, then 422 invalid', async () => {
      const res = await expectNoWrite(service, () => school.admin.put(`/forum_questions/${q.id}/move`, { forum_question: { forum_section_id: otherForumSection.id } }));
      expectFieldError(res, 422, 'forum_section_id', 'invalid');
    });

    it("given another school's section, then 422 not_found", async () => {
      const res = await expectNoWrite(service, () => school.admin.put(`/forum_questions/${q.id}/move`, { forum_question: { forum_section_id: foreignSection.id } }));
      expectFieldError(res, 422, 'forum_section_id', 'not_found');
    });

    it('given no section, then 422 blank; no resource key, then 400', async () => {
      expectFieldError(
        await expectNoWrite(service, () => school.admin.put(`/forum_questions/${q.id}/move`, { forum_question: { title: 'x' } })),
        422,
        'forum_section_id',
        'blank',
      );
      expectErrorBody(await expectNoWrite(service, () => school.admin.put(`/forum_questions/${q.id}/move`, { forum_section_id: siblingSection.id })), 400);
    });

    it("given another school's question, another student's question or no credential, then 404, 403, 401", async () => {
      const foreign = await question(other.admin, foreignSection.id);
      const body = { forum_question: { forum_section_id: siblingSection.id } };
      expectNotFound(await expectNoWrite(service, () => school.admin.put(`/forum_questions/${foreign.id}/move`, body)));
      const stranger = await person(service, school, 'Student');
      expectErrorBody(await expectNoWrite(service, () => stranger.client.put(`/forum_questions/${q.id}/move`, body)), 403);
      expectErrorBody(await expectNoWrite(service, () => service.anonymous.put(`/forum_questions/${q.id}/move`, body)), 401);
    });
  });
});

describe('DELETE /forum_questions/:id', () => {
  it('given its author, then 204 and the question is gone with its answers', async () => {
    const q = await question(student.client, generalSection.id);
    await answer(school.admin, q.id);
    const res = await student.client.delete(`/forum_questions/${q.id}`);
    expect(res.status, res.text).toBe(204);
    expect(await questionRow(service, q.id)).toBeUndefined();
  });

  it("given another school's question, another student's question or no credential, then 404, 403, 401 and nothing deleted", async () => {
    const foreign = await question(other.admin, foreignSection.id);
    const q = await question(school.admin, generalSection.id);
    expectNotFound(await expectNoWrite(service, () => school.admin.delete(`/forum_questions/${foreign.id}`)));
    expectErrorBody(await expectNoWrite(service, () => student.client.delete(`/forum_questions/${q.id}`)), 403);
    expectErrorBody(await expectNoWrite(service, () => service.anonymous.delete(`/forum_questions/${q.id}`)), 401);
  });
});
