import { describe, expect, it } from 'vitest';
import {
  commentRow,
  discussion,
  eventsOf,
  expectNoWrite,
  person,
} from './support/forums.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError, expectNotFound } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// REST face of CollaborativeComment:
//   GET /collaborative_discussions/:collaborative_discussion_id/collaborative_comments
//   POST /collaborative_discurssions/:collaborative_discurssion_id/collaborative_comments (the spec's spelling)
//   POST /collaborative_discussions/:collaborative_discussion_id/collaborative_comments (the correct spelling)
//   GET/PUT/PATCH/DELETE /collaborative_comments/:id

let service: Service;
let school: TestSchool;
let other: TestSchool;
let student: { user: { id: number }; client: Client };
let collaborator: { user: { id: number }; client: Client };
let foreignUser: { user: { id: number }; client: Client };
let thread: number;
let foreignThread: number;

twoSchools('Comment School', 'Other Comment School', async (w) => {
  ({ service, school, other } = w);
  student = await person(service, school, 'Student');
  collaborator = await person(service, school, 'Collaborator');
  foreignUser = await person(service, other, 'Student');
  thread = await discussion(school.admin);
  foreignThread = await discussion(other.admin);
});

const misspelled = (id: number) => `/collaborative_discurssions/${id}/collaborative_comments`;
const spelled = (id: number) => `/collaborative_discussions/${id}/collaborative_comments`;

async function comment(client: Client, userId: number, text = 'A thought') {
  const res = await client.post(spelled(thread), { collaborative_comment: { text, user_id: userId } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number };
}

describe('POST collaborative comments', () => {
  it.each([
    ['the spec’s misspelled path', misspelled],
    ['the correct spelling', spelled],
  ])('given %s with text and user_id, then 201 with the comment, a Location, the row and one event', async (_name, path) => {
    const res = await student.client.post(path(thread), { collaborative_comment: { text: 'I agree', user_id: student.user.id } });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/collaborative_comments/${res.body.id}`);
    expect(res.body).toMatchObject({ id: expect.any(Number), school_id: school.id, collaborative_discussion_id: thread, user_id: student.user.id, text: 'I agree' });
    expect(await commentRow(service, res.body.id)).toMatchObject({ collaborativeDiscussionId: thread, userId: student.user.id, text: 'I agree' });
    expect(await eventsOf(service, 'collaborative_comment.created', res.body.id)).toMatchObject([
      { schoolId: school.id, subjectType: 'CollaborativeComment', payload: { collaborative_discussion_id: thread, user_id: student.user.id } },
    ]);
  });

  it('given /v1, a form-urlencoded body and a multipart body, then 201', async () => {
    const form = await school.admin.post(`/v1${misspelled(thread)}`, { collaborative_comment: { text: 'Form', user_id: String(collaborator.user.id) } }, { encoding: 'form' });
    expect(form.status, form.text).toBe(201);
    expect(form.body).toMatchObject({ text: 'Form', user_id: collaborator.user.id });
    const multipart = await school.admin.post(spelled(thread), { collaborative_comment: { text: 'Multipart', user_id: student.user.id } }, { encoding: 'multipart' });
    expect(multipart.status, multipart.text).toBe(201);
    expect(multipart.body.user_id).toBe(student.user.id);
  });

  describe('refused: nothing written', () => {
    it('given no text and no user_id, then 422 with both blank', async () => {
      const res = await expectNoWrite(service, () => school.admin.post(misspelled(thread), { collaborative_comment: { text: ' ' } }));
      expectErrorBody(res, 422);
      expect(res.body.details).toEqual({ text: [{ error: 'blank' }], user_id: [{ error: 'blank' }] });
    });

    it("given a user of another school or none, then 422 user_id not_found", async () => {
      expectFieldError(
        await expectNoWrite(service, () => school.admin.post(spelled(thread), { collaborative_comment: { text: 'x', user_id: foreignUser.user.id } })),
        422,
        'user_id',
        'not_found',
      );
      expectFieldError(
        await expectNoWrite(service, () => school.admin.post(spelled(thread), { collaborative_comment: { text: 'x', user_id: 999999 } })),
        422,
        'user_id',
        'not_found',
      );
    });

    it('given a student naming another user, then 403 user_id forbidden', async () => {
      const res = await expectNoWrite(service, () => student.client.post(spelled(thread), { collaborative_comment: { text: 'x', user_id: collaborator.user.id } }));
      expectFieldError(res, 403, 'user_id', 'forbidden');
    });

    it.each([
      ['invalid JSON', undefined, { raw: '{"collaborative_comment":', headers: { 'content-type': 'application/json' } }],
      ['a missing resource key', { text: 'x', user_id: 1 }, {}],
      ['a text of the wrong type', { collaborative_comment: { text: { a: 1 }, user_id: 1 } }, {}],
    ])('given %s, then 400', async (_name, body, options) => {
      expectErrorBody(await expectNoWrite(service, () => school.admin.post(misspelled(thread), body, options as any)), 400);
    });

    it("given another school's discussion (either spelling), then 404", async () => {
      const body = { collaborative_comment: { text: 'x', user_id: student.user.id } };
      expectNotFound(await expectNoWrite(service, () => school.admin.post(misspelled(foreignThread), body)));
      expectNotFound(await expectNoWrite(service, () => school.admin.post(spelled(foreignThread), body)));
    });

    it('given no credential, then 401', async () => {
      const body = { collaborative_comment: { text: 'x', user_id: student.user.id } };
      expectErrorBody(await expectNoWrite(service, () => service.anonymous.post(misspelled(thread), body)), 401);
    });
  });
});

describe('GET /collaborative_discussions/:collaborative_discussion_id/collaborative_comments', () => {
  it("given a discussion, then its comments in order, and none of another discussion", async () => {
    const own = await discussion(school.admin);
    const first = (await student.client.post(spelled(own), { collaborative_comment: { text: 'One', user_id: student.user.id } })).body;
    const second = (await collaborator.client.post(spelled(own), { collaborative_comment: { text: 'Two', user_id: collaborator.user.id } })).body;
    await comment(school.admin, student.user.id);
    const res = await student.client.get(spelled(own));
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((c: any) => [c.id, c.text])).toEqual([
      [first.id, 'One'],
      [second.id, 'Two'],
    ]);
    expect(res.headers['x-total-count']).toBe('2');
    const paged = await student.client.get(`${spelled(own)}?page=2&per_page=1`);
    expect(paged.body.map((c: any) => c.id)).toEqual([second.id]);
  });

  it("given another school's discussion or no credential, then 404 or 401", async () => {
    expectNotFound(await school.admin.get(spelled(foreignThread)));
    expectErrorBody(await service.anonymous.get(spelled(thread)), 401);
  });
});

describe('GET /collaborative_comments/:id', () => {
  it("given a comment, then 200; another school's, 404", async () => {
    const c = await comment(school.admin, student.user.id, 'Shown');
    const res = await student.client.get(`/collaborative_comments/${c.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, text: 'Shown', user_id: student.user.id, collaborative_discussion_id: thread });
    const foreign = (await other.admin.post(spelled(foreignThread), { collaborative_comment: { text: 'x', user_id: foreignUser.user.id } })).body;
    expectNotFound(await school.admin.get(`/collaborative_comments/${foreign.id}`));
    expectErrorBody(await service.anonymous.get(`/collaborative_comments/${c.id}`), 401);
  });
});

describe('PUT/PATCH /collaborative_comments/:id', () => {
  it('given a new text, then 200 with the comment and a Location of the show path', async () => {
    const c = await comment(student.client, student.user.id);
    for (const method of ['PUT', 'PATCH']) {
      const res = await student.client.request(method, `/collaborative_comments/${c.id}`, { collaborative_comment: { text: `Edited by ${method}` } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.location).toBe(`/collaborative_comments/${c.id}`);
      expect(res.body.text).toBe(`Edited by ${method}`);
    }
    expect((await commentRow(service, c.id)).text).toBe('Edited by PATCH');
  });

  it('given a staff credential and another user of the school, then the author changes; the whole object sent back is fine', async () => {
    const c = await comment(school.admin, student.user.id);
    const fetched = (await school.admin.get(`/collaborative_comments/${c.id}`)).body;
    const res = await school.admin.put(`/collaborative_comments/${c.id}`, { collaborative_comment: { ...fetched, user_id: collaborator.user.id } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ user_id: collaborator.user.id, created_at: fetched.created_at });
  });

  describe('refused: nothing written', () => {
    it.each([
      ['a blank text', { text: '' }, 'text', 'blank', 422],
      ['a null user_id', { user_id: null }, 'user_id', 'blank', 422],
      ["another school's user", { user_id: 0 }, 'user_id', 'not_found', 422],
    ])('given %s, then %s', async (_name, fields, field, code, status) => {
      const c = await comment(school.admin, student.user.id);
      const body = { ...fields } as Record<string, unknown>;
      if (body.user_id === 0) body.user_id = foreignUser.user.id;
      expectFieldError(await expectNoWrite(service, () => school.admin.patch(`/collaborative_comments/${c.id}`, { collaborative_comment: body })), status, field, code);
    });

    it("given another student's comment, a student reassigning its own, another school's comment or no credential, then 403, 403, 404, 401", async () => {
      const theirs = await comment(school.admin, collaborator.user.id);
      const mine = await comment(student.client, student.user.id);
      expectErrorBody(await expectNoWrite(service, () => student.client.put(`/collaborative_comments/${theirs.id}`, { collaborative_comment: { text: 'x' } })), 403);
      expectFieldError(
        await expectNoWrite(service, () => student.client.put(`/collaborative_comments/${mine.id}`, { collaborative_comment: { user_id: collaborator.user.id } })),
        403,
        'user_id',
        'forbidden',
      );
      expectNotFound(await expectNoWrite(service, () => other.admin.put(`/collaborative_comments/${mine.id}`, { collaborative_comment: { text: 'x' } })));
      expectErrorBody(await expectNoWrite(service, () => service.anonymous.put(`/collaborative_comments/${mine.id}`, { collaborative_comment: { text: 'x' } })), 401);
      expectErrorBody(await expectNoWrite(service, () => student.client.put(`/collaborative_comments/${mine.id}`, {})), 400);
    });
  });
});

describe('DELETE /collaborative_comments/:id', () => {
  it('given its author, then 204 and the row is gone', async () => {
    const c = await comment(student.client, student.user.id);
    const res = await student.client.delete(`/collaborative_comments/${c.id}`);
    expect(res.status, res.text).toBe(204);
    expect(await commentRow(service, c.id)).toBeUndefined();
  });

  it("given another student's comment, another school's comment or no credential, then 403, 404, 401 and nothing deleted", async () => {
    const c = await comment(school.admin, collaborator.user.id);
    expectErrorBody(await expectNoWrite(service, () => student.client.delete(`/collaborative_comments/${c.id}`)), 403);
    expectNotFound(await expectNoWrite(service, () => other.admin.delete(`/collaborative_comments/${c.id}`)));
    expectErrorBody(await expectNoWrite(service, () => service.anonymous.delete(`/collaborative_comments/${c.id}`)), 401);
  });
});
