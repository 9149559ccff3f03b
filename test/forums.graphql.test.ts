import { beforeAll, describe, expect, it } from 'vitest';
import { forumAnswers, forumQuestions, forumSections } from '../src/modules/forums/forum.table.js';
import { users } from '../src/modules/users/user.table.js';
import { answer, createForum, eventsOf, next, person, question, section, snapshot } from './support/forums.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { graphql } from './support/graphql.js';
import { twoSchools } from './support/world.js';

// GraphQL face of the forums: Forum (queries and mutations), the tree fields of ForumSection,
// ForumAnswer mutations and authors, moveForumQuestion, and the cost of a nested query.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let student: { user: { id: number; fullName: string }; client: Client };
let collaborator: { user: { id: number; fullName: string }; client: Client };

twoSchools('GraphQL Forum School', 'Other GraphQL Forum School', async (w) => {
  ({ service, school, other } = w);
  student = await person(service, school, 'Student', 'Stu Dent');
  collaborator = await person(service, school, 'Collaborator', 'Col Laborator');
});

const errorsOf = (payload: { errors: { field: string[]; code: string }[] }) => payload.errors.map((e) => [e.field.join('.'), e.code]);

describe('Forum', () => {
  it('createForum, updateForum, forum and forums: a client builds and reads its forums', async () => {
    const created = await school.admin.graphql(`mutation { createForum(input: { title: " Help desk " }) { forum { id title schoolId } errors { field code } } }`);
    expect(created.data.createForum.errors).toEqual([]);
    const forum = created.data.createForum.forum;
    expect(forum).toMatchObject({ title: 'Help desk', schoolId: String(school.id) });
    const updated = await school.admin.graphql(`mutation ($id: ID!) { updateForum(id: $id, input: { title: "Help" }) { forum { id title } errors { field code } } }`, { id: forum.id });
    expect(updated.data.updateForum).toEqual({ forum: { id: forum.id, title: 'Help' }, errors: [] });
    const read = await student.client.graphql(`query ($id: ID!) { forum(id: $id) { id title school { id } } forums { totalCount nodes { id } } }`, { id: forum.id });
    expect(read.errors).toBeUndefined();
    expect(read.data.forum).toEqual({ id: forum.id, title: 'Help', school: { id: String(school.id) } });
    expect(read.data.forums.nodes.map((n: any) => n.id)).toEqual(expect.arrayContaining([String(school.forumId), forum.id]));
    expect(read.data.forums.nodes.map((n: any) => n.id)).not.toContain(String(other.forumId));
  });

  it('createForum without a title and updateForum clearing it give blank errors and write nothing', async () => {
    const before = await snapshot(service);
    const created = await school.admin.graphql(`mutation { createForum(input: {}) { forum { id } errors { field code } } }`);
    expect(created.data.createForum).toEqual({ forum: null, errors: [{ field: ['title'], code: 'blank' }] });
    const updated = await school.admin.graphql(`mutation ($id: ID!) { updateForum(id: $id, input: { title: "" }) { forum { id } errors { field code } } }`, { id: String(school.forumId) });
    expect(updated.data.updateForum.errors).toEqual([{ field: ['title'], code: 'blank' }]);
    expect(await snapshot(service)).toEqual(before);
  });

  it("another school's forum is NOT_FOUND for reads and writes; a student may not create one", async () => {
    const read = await school.admin.graphql(`query ($id: ID!) { forum(id: $id) { id } }`, { id: String(other.forumId) });
    expect(read.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const write = await school.admin.graphql(`mutation ($id: ID!) { updateForum(id: $id, input: { title: "x" }) { forum { id } } }`, { id: String(other.forumId) });
    expect(write.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const denied = await student.client.graphql(`mutation { createForum(input: { title: "x" }) { forum { id } } }`);
    expect(denied.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('deleteForum removes the forum with its sections', async () => {
    const forum = await createForum(school.admin);
    const s = await section(school.admin, forum);
    const res = await school.admin.graphql(`mutation ($id: ID!) { deleteForum(id: $id) { forum { id } errors { code } } }`, { id: String(forum) });
    expect(res.data.deleteForum).toEqual({ forum: { id: String(forum) }, errors: [] });
    expect((await school.admin.get(`/forum_sections/${s.id}`)).status).toBe(404);
  });
});

describe('the section tree', () => {
  it('Forum.sections, Forum.rootSections, ForumSection.children, .parent, .forum and .questions', async () => {
    const forum = await createForum(school.admin);
    await section(school.admin, forum, { sequence: 2, title: 'B' });
    const a = await section(school.admin, forum, { sequence: 1, title: 'A' });
    await section(school.admin, forum, { parent_forum_section_id: a.id, title: 'A2', sequence: 2 });
    const a1 = await section(school.admin, forum, { parent_forum_section_id: a.id, title: 'A1', sequence: 1 });
    const q = await question(student.client, a1.id, { created_at: '2025-01-01T00:00:00Z' });
    const res = await student.client.graphql(
      graphql(`query ($id: ID!) { forum(id: $id) {
          sections { title }
          rootSections { title parent { id } forum { id } children { title parent { title } questions { totalCount nodes { id title } } } }
      } }`),
      { id: String(forum) },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.forum.sections.map((s) => s.title)).toEqual(['A', 'A1', 'B', 'A2']);
    const roots = res.data.forum.rootSections;
    expect(roots.map((s) => s.title)).toEqual(['A', 'B']);
    expect(roots[0]).toMatchObject({ parent: null, forum: { id: String(forum) } });
    expect(roots[0].children.map((c) => [c.title, c.parent.title])).toEqual([['A1', 'A'], ['A2', 'A']]);
    expect(roots[0].children[0].questions).toEqual({ totalCount: 1, nodes: [{ id: String(q.id), title: expect.any(String) }] });
    expect(roots[1].children).toEqual([]);
  });

  it('forumSections(forumId, rootsOnly) lists the top-level sections only when asked', async () => {
    const forum = await createForum(school.admin);
    const root = await section(school.admin, forum);
    await section(school.admin, forum, { parent_forum_section_id: root.id });
    const res = await school.admin.graphql(`query ($f: ID!) { all: forumSections(forumId: $f) { totalCount } roots: forumSections(forumId: $f, rootsOnly: true) { nodes { id } } }`, { f: String(forum) });
    expect(res.data.all.totalCount).toBe(2);
    expect(res.data.roots.nodes).toEqual([{ id: String(root.id) }]);
  });
});

describe('ForumAnswer', () => {
  let sectionId: number;
  beforeAll(async () => {
    sectionId = (await section(school.admin, school.forumId)).id;
  });

  it("createForumAnswer: the credential's user is the author; emits forum_answer.created; ForumQuestion.answers and ForumAnswer.author resolve every type", async () => {
    const q = await question(student.client, sectionId, { created_at: '2025-01-01T00:00:00Z' });
    const byStudent = await answer(student.client, q.id, { text: 'Me too' });
    const byCollaborator = await answer(collaborator.client, q.id, { text: 'See lesson 2' });
    const byAdmin = await answer(school.admin, q.id, { text: 'Fixed' });
    const onBehalf = await answer(school.admin, q.id, { text: 'Relayed', userId: String(student.user.id) });
    expect([byStudent.userId, byCollaborator.userId, byAdmin.userId, onBehalf.userId]).toEqual(
      [student.user.id, collaborator.user.id, school.adminId, student.user.id].map(String),
    );
    expect(await eventsOf(service, 'forum_answer.created', Number(byCollaborator.id))).toMatchObject([
      { schoolId: school.id, subjectType: 'ForumAnswer', payload: { forum_question_id: q.id, user_id: collaborator.user.id } },
    ]);
    const res = await student.client.graphql(
      graphql(`query ($id: ID!) { forumQuestion(id: $id) { answeredByAdmin author { id type fullName } answers { text question { id } author { id type fullName } } } }`),
      { id: String(q.id) },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.forumQuestion.answeredByAdmin).toBe(true);
    expect(res.data.forumQuestion.author).toEqual({ id: String(student.user.id), type: 'Student', fullName: 'Stu Dent' });
    expect(res.data.forumQuestion.answers.map((a) => [a.text, a.author.type, a.question.id])).toEqual([
      ['Me too', 'Student', String(q.id)],
      ['See lesson 2', 'Collaborator', String(q.id)],
      ['Fixed', 'Admin', String(q.id)],
      ['Relayed', 'Student', String(q.id)],
    ]);
    expect(res.data.forumQuestion.answers[1].author.fullName).toBe('Col Laborator');
  });

  it('createForumAnswer refuses a blank text, a student naming another author, a foreign user, and writes nothing', async () => {
    const q = await question(student.client, sectionId, { created_at: '2025-01-01T00:00:00Z' });
    const before = await snapshot(service);
    const run = (client: Client, input: Record<string, unknown>) =>
      client.graphql(`mutation ($q: ID!, $input: ForumAnswerInput!) { createForumAnswer(forumQuestionId: $q, input: $input) { forumAnswer { id } errors { field code } } }`, {
        q: String(q.id),
        input,
      });
    expect(errorsOf((await run(student.client, { text: ' ' })).data.createForumAnswer)).toEqual([['text', 'blank']]);
    expect(errorsOf((await run(student.client, { text: 'x', userId: String(collaborator.user.id) })).data.createForumAnswer)).toEqual([['userId', 'forbidden']]);
    expect(errorsOf((await run(school.admin, { text: 'x', userId: String(other.adminId) })).data.createForumAnswer)).toEqual([['userId', 'not_found']]);
    const foreign = await other.admin.graphql(`mutation ($q: ID!) { createForumAnswer(forumQuestionId: $q, input: { text: "x" }) { forumAnswer { id } } }`, { q: String(q.id) });
    expect(foreign.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const anonymous = await service.anonymous.graphql(`mutation ($q: ID!) { createForumAnswer(forumQuestionId: $q, input: { text: "x" }) { forumAnswer { id } } }`, { q: String(q.id) });
    expect(anonymous.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await snapshot(service)).toEqual(before);
  });

  it('updateForumAnswer and deleteForumAnswer: the author or staff; another student is FORBIDDEN; another school NOT_FOUND', async () => {
    const q = await question(student.client, sectionId, { created_at: '2025-01-01T00:00:00Z' });
    const mine = await answer(student.client, q.id, { text: 'First' });
    const update = (client: Client, id: string, input: Record<string, unknown>) =>
      client.graphql(`mutation ($id: ID!, $input: ForumAnswerInput!) { updateForumAnswer(id: $id, input: $input) { forumAnswer { id text } errors { field code } } }`, { id, input });
    const remove = (client: Client, id: string) => client.graphql(`mutation ($id: ID!) { deleteForumAnswer(id: $id) { forumAnswer { id } errors { code } } }`, { id });
    expect((await update(student.client, mine.id, { text: 'Edited' })).data.updateForumAnswer).toEqual({ forumAnswer: { id: mine.id, text: 'Edited' }, errors: [] });
    expect(errorsOf((await update(student.client, mine.id, { text: '' })).data.updateForumAnswer)).toEqual([['text', 'blank']]);
    const stranger = await person(service, school, 'Student');
    expect((await update(stranger.client, mine.id, { text: 'Hijack' })).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await remove(stranger.client, mine.id)).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await update(other.admin, mine.id, { text: 'x' })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await remove(other.admin, mine.id)).errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await update(collaborator.client, mine.id, { text: 'Moderated' })).data.updateForumAnswer.forumAnswer.text).toBe('Moderated');
    expect((await remove(student.client, mine.id)).data.deleteForumAnswer).toEqual({ forumAnswer: { id: mine.id }, errors: [] });
    expect((await school.admin.graphql(`query ($id: ID!) { forumAnswer(id: $id) { id } }`, { id: mine.id })).errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('createForumQuestion', () => {
  const create = (client: Client, input: Record<string, unknown>, forumSectionId?: string) =>
    client.graphql(
      graphql(`mutation ($s: ID, $input: CreateForumQuestionInput!) { createForumQuestion(forumSectionId: $s, input: $input) { forumQuestion { id forumSectionId userId fixed } errors { field code } } }`),
      { s: forumSectionId, input },
    );

  it('takes the section from the argument, else from input.forumSectionId or its alias input.forumQuestionId', async () => {
    const s = await section(school.admin, school.forumId);
    const t = { title: 't', description: 'd', createdAt: '2025-01-01T00:00:00Z' };
    const byArg = await create(student.client, t, String(s.id));
    const byField = await create(student.client, { ...t, forumSectionId: String(s.id) });
    const byAlias = await create(student.client, { ...t, forumQuestionId: String(s.id), fixed: true });
    for (const r of [byArg, byField, byAlias]) expect(r.data.createForumQuestion.errors).toEqual([]);
    expect(byAlias.data.createForumQuestion.forumQuestion).toMatchObject({ forumSectionId: String(s.id), userId: String(student.user.id), fixed: true });
  });

  it('without a section gives forumSectionId blank; a section of another school in the input, not_found; nothing written', async () => {
    const foreign = await section(other.admin, other.forumId);
    const before = await snapshot(service);
    expect(errorsOf((await create(student.client, { title: 't', description: 'd' })).data.createForumQuestion)).toEqual([['forumSectionId', 'blank']]);
    expect(errorsOf((await create(student.client, { title: 't', description: 'd', forumQuestionId: String(foreign.id) })).data.createForumQuestion)).toEqual([
      ['forumQuestionId', 'not_found'],
    ]);
    const byArg = await create(student.client, { title: 't', description: 'd' }, String(foreign.id));
    expect(byArg.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect(await snapshot(service)).toEqual(before);
  });
});

describe('moveForumQuestion', () => {
  it('moves within a forum and refuses a section of another forum', async () => {
    const from = await section(school.admin, school.forumId);
    const to = await section(school.admin, school.forumId);
    const elsewhere = await section(school.admin, await createForum(school.admin));
    const q = await question(student.client, from.id, { created_at: '2025-01-01T00:00:00Z' });
    const move = (target: number) =>
      student.client.graphql(`mutation ($id: ID!, $s: ID) { moveForumQuestion(id: $id, forumSectionId: $s) { forumQuestion { forumSectionId section { id } } errors { field code message } } }`, {
        id: String(q.id),
        s: String(target),
      });
    const moved = await move(to.id);
    expect(moved.data.moveForumQuestion).toEqual({ forumQuestion: { forumSectionId: String(to.id), section: { id: String(to.id) } }, errors: [] });
    const refused = await move(elsewhere.id);
    expect(refused.data.moveForumQuestion.forumQuestion).toBeNull();
    expect(refused.data.moveForumQuestion.errors).toEqual([{ field: ['forumSectionId'], code: 'invalid', message: 'must be a section of the same forum' }]);
  });
});

describe('batching', () => {
  /**
   * A forum of `sectionCount` sections, each of `questionCount` questions with 3 answers by a
   * student, a collaborator and an admin. Questions and answers have different authors, so the
   * answers' authors are never already in the loader's cache.
   */
  async function seedForum(sectionCount: number, questionCount: number) {
    const forumId = await createForum(school.admin);
    const people = await service.db
      .insert(users)
      .values(
        (['Student', 'Collaborator', 'Admin', 'Student', 'Collaborator', 'Admin'] as const).map((type) => ({
          schoolId: school.id,
          type,
          fullName: `${type} seeded`,
          email: `seed${next()}-${type}@example.com`,
        })),
      )
      .returning();
    const sections = await service.db
      .insert(forumSections)
      .values(Array.from({ length: sectionCount }, (_, i) => ({ schoolId: school.id, forumId, title: `S${i}`, description: 'd', sequence: i + 1 })))
      .returning();
    const questions = await service.db
      .insert(forumQuestions)
      .values(sections.flatMap((s) => Array.from({ length: questionCount }, (_, j) => ({ schoolId: school.id, forumSectionId: s.id, userId: people[3 + (j % 3)].id, title: `Q${j}`, description: 'd' }))))
      .returning();
    await service.db
      .insert(forumAnswers)
      .values(questions.flatMap((q) => people.slice(0, 3).map((p) => ({ schoolId: school.id, forumQuestionId: q.id, userId: p.id, text: 'a' }))));
    return forumId;
  }

  const nested = graphql(`query ($id: ID!) { forum(id: $id) { id sections { id parent { id } children { id }
    questions(first: 100) { totalCount nodes { id answeredByAdmin author { id type } answers { id author { id type fullName } } } } } } }`);

  it('forum { sections { questions { answers { author } } } } costs the same number of statements for 900 answers as for 12', async () => {
    const small = await seedForum(2, 2);
    const large = await seedForum(10, 30);
    let smallResult: any;
    let largeResult: any;
    const smallCount = await service.countStatements(async () => {
      smallResult = await school.admin.graphql(nested, { id: String(small) });
    });

    const largeCount = await service.countStatements(async () => {
      largeResult = await school.admin.graphql(nested, { id: String(large) });
    });
    expect(smallResult.errors).toBeUndefined();
    expect(largeResult.errors).toBeUndefined();
    const answersOf = (r: any) => r.data.forum.sections.flatMap((s: any) => s.questions.nodes.flatMap((q: any) => q.answers));
    expect(answersOf(smallResult)).toHaveLength(12);
    expect(answersOf(largeResult)).toHaveLength(900);
    expect(new Set(answersOf(largeResult).map((a: any) => a.author.type))).toEqual(new Set(['Student', 'Collaborator', 'Admin']));
    expect(largeResult.data.forum.sections.every((s: any) => s.questions.totalCount === 30)).toBe(true);
    expect(largeCount).toBe(smallCount);
    // credential, forum, sections, parents, children, questions page, counts, answered flags, answers, users.
    expect(largeCount).toBeLessThanOrEqual(10);
  });

  it('the REST list of questions costs a constant number of statements however many questions there are', async () => {
    const s = await section(school.admin, school.forumId);
    await question(student.client, s.id, { created_at: '2025-01-01T00:00:00Z' });
    const list = () => school.admin.get(`/forum_sections/${s.id}/forum_questions?answered_by_admin=false`);
    const before = await service.countStatements(list);
    await service.db
      .insert(forumQuestions)
      .values(Array.from({ length: 60 }, (_, i) => ({ schoolId: school.id, forumSectionId: s.id, userId: student.user.id, title: `Bulk ${i}`, description: 'd' })));
    let reply: any;
    const after = await service.countStatements(async () => {
      reply = await list();
    });
    expect(reply.body).toHaveLength(61);
    expect(after).toBe(before);
  });
});
