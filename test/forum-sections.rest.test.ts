import { beforeAll, describe, expect, it } from 'vitest';
import {
  createForum,
  expectNoWrite,
  person,
  question,
  questionRow,
  section,
  sectionRow,
} from './support/forums.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError, expectNotFound } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// REST face of ForumSection:
//   GET/POST /forums/:forum_id/forum_sections
//   GET/PUT/PATCH/DELETE /forum_sections/:id

let service: Service;
let school: TestSchool;
let other: TestSchool;
let student: Client;
/** A second forum of the school, and a section of another school. */
let secondForum: number;
let foreign: { id: number };

twoSchools('Section School', 'Other Section School', async (w) => {
  ({ service, school, other } = w);
  student = (await person(service, school, 'Student')).client;
  secondForum = await createForum(school.admin, 'Second forum');
  foreign = await section(other.admin, other.forumId, { title: 'Foreign' });
});

const create = (forumId: number, body: unknown, options?: Parameters<Client['post']>[2], client = school.admin) =>
  client.post(`/forums/${forumId}/forum_sections`, body, options);

describe('POST /forums/:forum_id/forum_sections', () => {
  it('given a title and a description as JSON, then 201 with the section, a Location and the row', async () => {
    const forum = await createForum(school.admin);
    const res = await create(forum, { forum_section: { title: ' General ', description: 'Anything goes', category: 'misc' } });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/forum_sections/${res.body.id}`);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      school_id: school.id,
      forum_id: forum,
      parent_forum_section_id: null,
      title: 'General',
      description: 'Anything goes',
      sequence: 1,
      category: 'misc',
      created_at: expect.any(String),
    });
    expect(await sectionRow(service, res.body.id)).toMatchObject({ forumId: forum, title: 'General', sequence: 1, schoolId: school.id });
  });

  it('given no sequence, then it is the next among its siblings (max + 1), counted per parent', async () => {
    const forum = await createForum(school.admin);
    const first = await section(school.admin, forum);
    const explicit = await section(school.admin, forum, { sequence: 7 });
    const after = await section(school.admin, forum);
    expect([first.sequence, explicit.sequence, after.sequence]).toEqual([1, 7, 8]);
    const child1 = await section(school.admin, forum, { parent_forum_section_id: first.id });
    const child2 = await section(school.admin, forum, { parent_forum_section_id: first.id });
    const otherChild = await section(school.admin, forum, { parent_forum_section_id: after.id });
    expect([child1.sequence, child2.sequence, otherChild.sequence]).toEqual([1, 2, 1]);
    expect(child1.parent_forum_section_id).toBe(first.id);
    // Another forum numbers its own sections.
    expect((await section(school.admin, await createForum(school.admin))).sequence).toBe(1);
  });

  it('given a sequence of 0, then it is kept', async () => {
    expect((await section(school.admin, secondForum, { sequence: 0 })).sequence).toBe(0);
  });

  it('given a form-urlencoded body with bracket names (a numeric string sequence), then 201', async () => {
    const res = await create(secondForum, { forum_section: { title: 'Form', description: 'by form', sequence: '4' } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ title: 'Form', description: 'by form', sequence: 4, forum_id: secondForum });
  });

  it('given a multipart body, then 201', async () => {
    const parent = await section(school.admin, secondForum);
    const res = await create(
      secondForum,
      { forum_section: { title: 'Multipart', description: 'by multipart', parent_forum_section_id: parent.id } },
      { encoding: 'multipart' },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ title: 'Multipart', parent_forum_section_id: parent.id, sequence: 1 });
  });

  it('given a forum_id in the body naming another forum, then the forum of the path wins', async () => {
    const res = await create(secondForum, { forum_section: { title: 'Path wins', description: 'd', forum_id: school.forumId } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.forum_id).toBe(secondForum);
  });

  it('given a collaborator credential, then 201', async () => {
    const { client } = await person(service, school, 'Collaborator');
    expect((await section(client, school.forumId)).forum_id).toBe(school.forumId);
  });

  describe('invalid objects: 422 and nothing written', () => {
    it('given no title and no description, then both are blank', async () => {
      const res = await expectNoWrite(service, () => create(school.forumId, { forum_section: { category: 'x' } }));
      expectErrorBody(res, 422);
      expect(res.body.details).toEqual({ title: [{ error: 'blank' }], description: [{ error: 'blank' }] });
    });

    it('given a parent section of another forum of the school, then parent_forum_section_id is invalid', async () => {
      const parent = await section(school.admin, secondForum);
      const res = await expectNoWrite(service, () =>
        create(school.forumId, { forum_section: { title: 't', description: 'd', parent_forum_section_id: parent.id } }),
      );
      expectFieldError(res, 422, 'parent_forum_section_id', 'invalid');
    });

    it.each([
      ['a section of another school', () => foreign.id],
      ['a section that does not exist', () => 999999],
    ])('given a parent that is %s, then parent_forum_section_id is not_found', async (_name, id) => {
      const res = await expectNoWrite(service, () =>
        create(school.forumId, { forum_section: { title: 't', description: 'd', parent_forum_section_id: id() } }),
      );
      expectFieldError(res, 422, 'parent_forum_section_id', 'not_found');
    });

    it('given a negative sequence, then sequence is out of range', async () => {
      const res = await expectNoWrite(service, () => create(school.forumId, { forum_section: { title: 't', description: 'd', sequence: -1 } }));
      expectFieldError(res, 422, 'sequence', 'greater_than_or_equal_to');
    });
  });

  describe('refused requests', () => {
    it.each([
      ['invalid JSON', undefined, { raw: '{"forum_section": {', headers: { 'content-type': 'application/json' } }],
      ['a missing resource key', { title: 'x', description: 'y' }, {}],
      ['a resource that is not a hash', { forum_section: 'x' }, {}],
      ['a sequence that is not a number', { forum_section: { title: 'x', description: 'y', sequence: 'abc' } }, {}],
      ['a fractional sequence', { forum_section: { title: 'x', description: 'y', sequence: 1.5 } }, {}],
      ['a title of the wrong type', { forum_section: { title: { a: 1 }, description: 'y' } }, {}],
    ])('given %s, then 400 and nothing written', async (_name, body, options) => {
      expectErrorBody(await expectNoWrite(service, () => create(school.forumId, body, options as any)), 400);
    });

    it("given another school's forum or a forum that does not exist, then 404 and nothing written", async () => {
      const body = { forum_section: { title: 'x', description: 'y' } };
      expectNotFound(await expectNoWrite(service, () => create(other.forumId, body)));
      expectNotFound(await expectNoWrite(service, () => create(999999, body)));
      expectNotFound(await expectNoWrite(service, () => school.admin.post('/forums/abc/forum_sections', body)));
    });

    it('given no credential, a wrong token or a student, then 401, 401, 403 and nothing written', async () => {
      const body = { forum_section: { title: 'x', description: 'y' } };
      expectErrorBody(await expectNoWrite(service, () => create(school.forumId, body, {}, service.anonymous)), 401);
      expectErrorBody(await expectNoWrite(service, () => create(school.forumId, body, {}, service.client('wrong'))), 401);
      expectErrorBody(await expectNoWrite(service, () => create(school.forumId, body, {}, student)), 403);
    });
  });
});

describe('GET /forums/:forum_id/forum_sections', () => {
  it('given a forum with nested sections, then every section of the forum and none of another forum', async () => {
    const forum = await createForum(school.admin);
    const root = await section(school.admin, forum);
    const child = await section(school.admin, forum, { parent_forum_section_id: root.id });
    await section(school.admin, secondForum);
    const res = await student.get(`/forums/${forum}/forum_sections`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((s: any) => s.id)).toEqual([root.id, child.id]);
    expect(res.body[1]).toMatchObject({ parent_forum_section_id: root.id, forum_id: forum, title: expect.any(String), sequence: 1 });
    expect(res.headers['x-total-count']).toBe('2');
  });

  it('given page and per_page, then one page with the paging headers', async () => {
    const forum = await createForum(school.admin);
    for (let i = 0; i < 3; i++) await section(school.admin, forum);
    const res = await school.admin.get(`/forums/${forum}/forum_sections?page=2&per_page=2`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.headers).toMatchObject({ 'x-total-count': '3', 'x-page': '2', 'x-per-page': '2' });
  });

  it("given another school's forum, then 404; without a credential, 401", async () => {
    expectNotFound(await school.admin.get(`/forums/${other.forumId}/forum_sections`));
    expectErrorBody(await service.anonymous.get(`/forums/${school.forumId}/forum_sections`), 401);
  });
});

describe('GET /forum_sections/:id', () => {
  it('given a section of the school, then 200 with it (also with .json and /v1)', async () => {
    const s = await section(school.admin, school.forumId, { category: 'faq' });
    for (const path of [`/forum_sections/${s.id}`, `/forum_sections/${s.id}.json`, `/v1/forum_sections/${s.id}`]) {
      const res = await student.get(path);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: s.id, category: 'faq', forum_id: school.forumId });
    }
  });

  it("given another school's section or none, then 404", async () => {
    expectNotFound(await school.admin.get(`/forum_sections/${foreign.id}`));
    expectNotFound(await school.admin.get('/forum_sections/999999'));
    expectErrorBody(await service.anonymous.get(`/forum_sections/${foreign.id}`), 401);
  });
});

describe('PUT/PATCH /forum_sections/:id', () => {
  it('given new fields, then 200 with the section, a Location of the show path, and the row', async () => {
    const s = await section(school.admin, school.forumId);
    const res = await school.admin.put(`/forum_sections/${s.id}`, { forum_section: { title: 'Renamed', description: 'New', category: 'c', sequence: 5 } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/forum_sections/${s.id}`);
    expect(res.body).toMatchObject({ id: s.id, title: 'Renamed', description: 'New', category: 'c', sequence: 5 });
    expect(await sectionRow(service, s.id)).toMatchObject({ title: 'Renamed', sequence: 5 });
  });

  it.each([
    ['JSON', 'json'],
    ['a form', 'form'],
    ['multipart', 'multipart'],
  ] as const)('given the sequence "3" as a string in %s, then it is 3', async (_name, encoding) => {
    const s = await section(school.admin, school.forumId);
    const res = await school.admin.patch(`/forum_sections/${s.id}`, { forum_section: { sequence: '3' } }, { encoding });
    expect(res.status, res.text).toBe(200);
    expect(res.body.sequence).toBe(3);
    expect((await sectionRow(service, s.id)).sequence).toBe(3);
  });

  it('given the sequence "abc", then 400 and nothing written', async () => {
    const s = await section(school.admin, school.forumId);
    const res = await expectNoWrite(service, () => school.admin.patch(`/forum_sections/${s.id}`, { forum_section: { sequence: 'abc' } }));
    expectErrorBody(res, 400);
    expect(Object.keys(res.body.errors)).toEqual(['sequence']);
  });

  it('given the whole section fetched before (id, timestamps, forum_id), then the read-only fields are ignored', async () => {
    const s = await section(school.admin, school.forumId);
    const fetched = (await school.admin.get(`/forum_sections/${s.id}`)).body;
    const res = await school.admin.put(`/forum_sections/${s.id}`, { forum_section: { ...fetched, id: 1, created_at: '2000-01-01T00:00:00Z', title: 'Round trip' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, title: 'Round trip', sequence: s.sequence, created_at: fetched.created_at });
  });

  it('given a new parent, then the section moves under it with the next sequence there; null makes it top-level again', async () => {
    const forum = await createForum(school.admin);
    const a = await section(school.admin, forum);
    const b = await section(school.admin, forum);
    await section(school.admin, forum, { parent_forum_section_id: a.id });
    const res = await school.admin.patch(`/forum_sections/${b.id}`, { forum_section: { parent_forum_section_id: a.id } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ parent_forum_section_id: a.id, sequence: 2 });
    const back = await school.admin.patch(`/forum_sections/${b.id}`, { forum_section: { parent_forum_section_id: null } });
    expect(back.body).toMatchObject({ parent_forum_section_id: null, sequence: 2 });
  });

  describe('cycles are refused (422, nothing written)', () => {
    let root: { id: number };
    let child: { id: number };
    let grandchild: { id: number };
    beforeAll(async () => {
      root = await section(school.admin, school.forumId);
      child = await section(school.admin, school.forumId, { parent_forum_section_id: root.id });
      grandchild = await section(school.admin, school.forumId, { parent_forum_section_id: child.id });
    });

    it.each([
      ['itself', () => [root.id, root.id]],
      ['its child', () => [root.id, child.id]],
      ['its grandchild', () => [root.id, grandchild.id]],
      ['the grandchild of a middle section', () => [child.id, grandchild.id]],
    ])('given a section whose new parent is %s, then parent_forum_section_id is invalid', async (_name, pair) => {
      const [id, parent] = pair();
      const res = await expectNoWrite(service, () => school.admin.put(`/forum_sections/${id}`, { forum_section: { parent_forum_section_id: parent } }));
      expectFieldError(res, 422, 'parent_forum_section_id', 'invalid');
    });

    it('given a sibling branch as the new parent, then it is accepted', async () => {
      const sibling = await section(school.admin, school.forumId);
      const res = await school.admin.put(`/forum_sections/${grandchild.id}`, { forum_section: { parent_forum_section_id: sibling.id } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.parent_forum_section_id).toBe(sibling.id);
    });
  });

  it('given another forum_id, then the section moves there with its subsections (and its questions follow)', async () => {
    const forum = await createForum(school.admin);
    const parent = await section(school.admin, forum);
    const moving = await section(school.admin, forum, { parent_forum_section_id: parent.id });
    const sub = await section(school.admin, forum, { parent_forum_section_id: moving.id });
    const q = await question(school.admin, sub.id, { created_at: '2025-01-01T00:00:00Z' });
    const target = await createForum(school.admin);
    const res = await school.admin.put(`/forum_sections/${moving.id}`, { forum_section: { forum_id: target } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ forum_id: target, parent_forum_section_id: null, sequence: 1 });
    expect(await sectionRow(service, sub.id)).toMatchObject({ forumId: target, parentForumSectionId: moving.id });
    expect(await sectionRow(service, parent.id)).toMatchObject({ forumId: forum });
    expect((await questionRow(service, q.id)).forumSectionId).toBe(sub.id);
  });

  describe('invalid objects: 422 and nothing written', () => {
    it.each([
      ['a blank title', { title: '' }, 'title', 'blank'],
      ['a null description', { description: null }, 'description', 'blank'],
      ['a null sequence', { sequence: null }, 'sequence', 'blank'],
      ['a negative sequence', { sequence: -2 }, 'sequence', 'greater_than_or_equal_to'],
      ["another school's forum", { forum_id: 0 }, 'forum_id', 'not_found'],
      ["another school's parent", { parent_forum_section_id: 0 }, 'parent_forum_section_id', 'not_found'],
    ])('given %s, then 422', async (_name, fields, field, code) => {
      const s = await section(school.admin, school.forumId);
      const body = { ...fields } as Record<string, unknown>;
      if (body.forum_id === 0) body.forum_id = other.forumId;
      if (body.parent_forum_section_id === 0) body.parent_forum_section_id = foreign.id;
      const res = await expectNoWrite(service, () => school.admin.patch(`/forum_sections/${s.id}`, { forum_section: body }));
      expectFieldError(res, 422, field, code);
    });

    it('given a parent in another forum of the school, then parent_forum_section_id is invalid', async () => {
      const s = await section(school.admin, school.forumId);
      const elsewhere = await section(school.admin, secondForum);
      const res = await expectNoWrite(service, () => school.admin.patch(`/forum_sections/${s.id}`, { forum_section: { parent_forum_section_id: elsewhere.id } }));
      expectFieldError(res, 422, 'parent_forum_section_id', 'invalid');
    });
  });

  it("given another school's section, a student or no credential, then 404, 403, 401 and nothing written", async () => {
    const s = await section(school.admin, school.forumId);
    expectNotFound(await expectNoWrite(service, () => school.admin.put(`/forum_sections/${foreign.id}`, { forum_section: { title: 'x' } })));
    expectErrorBody(await expectNoWrite(service, () => student.put(`/forum_sections/${s.id}`, { forum_section: { title: 'x' } })), 403);
    expectErrorBody(await expectNoWrite(service, () => service.anonymous.put(`/forum_sections/${s.id}`, { forum_section: { title: 'x' } })), 401);
    expectErrorBody(await expectNoWrite(service, () => school.admin.put(`/forum_sections/${s.id}`, {})), 400);
  });
});

describe('DELETE /forum_sections/:id', () => {
  it('given a section, then 204 and it is gone with its subsections and questions', async () => {
    const s = await section(school.admin, school.forumId);
    const sub = await section(school.admin, school.forumId, { parent_forum_section_id: s.id });
    const q = await question(school.admin, sub.id, { created_at: '2025-01-01T00:00:00Z' });
    const res = await school.admin.delete(`/forum_sections/${s.id}`);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect(await sectionRow(service, s.id)).toBeUndefined();
    expect(await sectionRow(service, sub.id)).toBeUndefined();
    expect(await questionRow(service, q.id)).toBeUndefined();
    expectNotFound(await school.admin.get(`/forum_sections/${s.id}`));
  });

  it("given another school's section, a student or no credential, then 404, 403, 401 and nothing deleted", async () => {
    const s = await section(school.admin, school.forumId);
    expectNotFound(await expectNoWrite(service, () => school.admin.delete(`/forum_sections/${foreign.id}`)));
    expectErrorBody(await expectNoWrite(service, () => student.delete(`/forum_sections/${s.id}`)), 403);
    expectErrorBody(await expectNoWrite(service, () => service.anonymous.delete(`/forum_sections/${s.id}`)), 401);
  });
});
