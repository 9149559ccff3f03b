import { describe, expect, it } from 'vitest';
import { collaborativeComments } from '../src/modules/collaborative/collaborative.table.js';
import { users } from '../src/modules/users/user.table.js';
import { discussion, lesson, next, person, snapshot } from './support/forums.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { graphql } from './support/graphql.js';
import { twoSchools } from './support/world.js';

// GraphQL face of CollaborativeDiscussion and CollaborativeComment.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let student: { user: { id: number }; client: Client };

twoSchools('Discussion School', 'Other Discussion School', async (w) => {
  ({ service, school, other } = w);
  student = await person(service, school, 'Student', 'Ada Student');
});

const createDiscussion = graphql(`mutation ($input: CollaborativeDiscussionInput!) {
  createCollaborativeDiscussion(input: $input) { collaborativeDiscussion { id title lessonId } errors { field code message } } }`);
const updateDiscussion = graphql(`mutation ($id: ID!, $input: CollaborativeDiscussionInput!) {
  updateCollaborativeDiscussion(id: $id, input: $input) { collaborativeDiscussion { id title lessonId } errors { field code message } } }`);

describe('CollaborativeDiscussion', () => {
  it('create and update with a title and a lesson of the school; read it back with its comments', async () => {
    const l1 = await lesson(service, school.id);
    const l2 = await lesson(service, school.id);
    const created = await school.admin.graphql(createDiscussion, { input: { title: ' Lesson 1 talk ', lessonId: String(l1.id) } });
    expect(created.data.createCollaborativeDiscussion.errors).toEqual([]);
    const d = created.data.createCollaborativeDiscussion.collaborativeDiscussion;
    expect(d).toMatchObject({ title: 'Lesson 1 talk', lessonId: String(l1.id) });
    const updated = await school.admin.graphql(updateDiscussion, { id: d.id, input: { lessonId: String(l2.id), title: 'Moved' } });
    expect(updated.data.updateCollaborativeDiscussion).toEqual({ collaborativeDiscussion: { id: d.id, title: 'Moved', lessonId: String(l2.id) }, errors: [] });
    const detached = await school.admin.graphql(updateDiscussion, { id: d.id, input: { lessonId: null } });
    expect(detached.data.updateCollaborativeDiscussion.collaborativeDiscussion.lessonId).toBeNull();
    await school.admin.post(`/collaborative_discussions/${d.id}/collaborative_comments`, { collaborative_comment: { text: 'Hi', user_id: student.user.id } });
    const read = await student.client.graphql(
      graphql(`query ($id: ID!) { collaborativeDiscussion(id: $id) { title comments { totalCount nodes { text discussion { id } user { id type fullName } } } } }`),
      { id: d.id },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data.collaborativeDiscussion).toEqual({
      title: 'Moved',
      comments: { totalCount: 1, nodes: [{ text: 'Hi', discussion: { id: d.id }, user: { id: String(student.user.id), type: 'Student', fullName: 'Ada Student' } }] },
    });
  });

  it('collaborativeDiscussions lists the school’s discussions, optionally of one lesson', async () => {
    const l = await lesson(service, school.id);
    const withLesson = await discussion(school.admin, { lessonId: String(l.id) });
    const without = await discussion(school.admin);
    const foreign = await discussion(other.admin);
    const res = await school.admin.graphql(`query ($l: ID) { all: collaborativeDiscussions(first: 100) { nodes { id } } ofLesson: collaborativeDiscussions(lessonId: $l) { nodes { id } } }`, { l: String(l.id) });
    const all = res.data.all.nodes.map((n: any) => Number(n.id));
    expect(all).toEqual(expect.arrayContaining([withLesson, without]));
    expect(all).not.toContain(foreign);
    expect(res.data.ofLesson.nodes).toEqual([{ id: String(withLesson) }]);
  });

  it('refuses a blank title, a lesson of another school or none, and a student; writes nothing', async () => {
    const foreignLesson = await lesson(service, other.id);
    const before = await snapshot(service);
    const blank = await school.admin.graphql(createDiscussion, { input: { title: '' } });
    expect(blank.data.createCollaborativeDiscussion.errors).toEqual([{ field: ['title'], code: 'blank', message: "can't be blank" }]);
    const foreign = await school.admin.graphql(createDiscussion, { input: { title: 'x', lessonId: String(foreignLesson.id) } });
    expect(foreign.data.createCollaborativeDiscussion.errors).toMatchObject([{ field: ['lessonId'], code: 'not_found' }]);
    const missing = await school.admin.graphql(createDiscussion, { input: { title: 'x', lessonId: '999999' } });
    expect(missing.data.createCollaborativeDiscussion.errors).toMatchObject([{ field: ['lessonId'], code: 'not_found' }]);
    const d = await discussion(other.admin);
    const crossUpdate = await school.admin.graphql(updateDiscussion, { id: String(d), input: { title: 'x' } });
    expect(crossUpdate.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const denied = await student.client.graphql(createDiscussion, { input: { title: 'x' } });
    expect(denied.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const after = await snapshot(service);
    expect(after.comments).toEqual(before.comments);
    expect(after.discussions.filter((r) => r.schoolId === school.id)).toEqual(before.discussions.filter((r) => r.schoolId === school.id));
  });

  it('deleteCollaborativeDiscussion removes it with its comments', async () => {
    const d = await discussion(school.admin);
    await school.admin.post(`/collaborative_discussions/${d}/collaborative_comments`, { collaborative_comment: { text: 'x', user_id: student.user.id } });
    const res = await school.admin.graphql(`mutation ($id: ID!) { deleteCollaborativeDiscussion(id: $id) { collaborativeDiscussion { id } errors { code } } }`, { id: String(d) });
    expect(res.data.deleteCollaborativeDiscussion).toEqual({ collaborativeDiscussion: { id: String(d) }, errors: [] });
    expect((await school.admin.get(`/collaborative_discussions/${d}/collaborative_comments`)).status).toBe(404);
  });
});

describe('CollaborativeComment', () => {
  it('createCollaborativeComment, collaborativeComments(userId) and collaborativeComment', async () => {
    const d = await discussion(school.admin);
    const created = await student.client.graphql(
      graphql(`mutation ($d: ID!, $u: ID) { createCollaborativeComment(collaborativeDiscussionId: $d, input: { text: "Mine", userId: $u }) { collaborativeComment { id userId } errors { field code } } }`),
      { d: String(d), u: String(student.user.id) },
    );
    expect(created.data.createCollaborativeComment.errors).toEqual([]);
    const id = created.data.createCollaborativeComment.collaborativeComment.id;
    const read = await school.admin.graphql(`query ($id: ID!, $u: ID) { collaborativeComment(id: $id) { text } collaborativeComments(userId: $u) { nodes { id } } }`, {
      id,
      u: String(student.user.id),
    });
    expect(read.data.collaborativeComment.text).toBe('Mine');
    expect(read.data.collaborativeComments.nodes.map((n: any) => n.id)).toContain(id);
    const blank = await student.client.graphql(`mutation ($d: ID!) { createCollaborativeComment(collaborativeDiscussionId: $d, input: { text: "x" }) { errors { field code } } }`, { d: String(d) });
    expect(blank.data.createCollaborativeComment.errors).toEqual([{ field: ['userId'], code: 'blank' }]);
  });

  it('discussions { comments { user } } costs the same number of statements for many comments by every kind of user as for few', async () => {
    const people = await service.db
      .insert(users)
      .values((['Student', 'Collaborator', 'Admin'] as const).map((type) => ({ schoolId: school.id, type, fullName: type, email: `c${next()}@example.com` })))
      .returning();
    const seed = async (count: number, perDiscussion: number) => {
      const ids: number[] = [];
      for (let i = 0; i < count; i++) ids.push(await discussion(school.admin));
      await service.db
        .insert(collaborativeComments)
        .values(ids.flatMap((d) => Array.from({ length: perDiscussion }, (_, j) => ({ schoolId: school.id, collaborativeDiscussionId: d, userId: people[j % 3].id, text: `c${j}` }))));
      return ids.map(String);
    };
    const nested = (ids: string[]) =>
      school.admin.graphql(
        `query { ${ids.map((id, i) => `d${i}: collaborativeDiscussion(id: "${id}") { id comments(first: 100) { totalCount nodes { id user { id type } discussion { id } } } }`).join(' ')} }`,
      );
    const small = await seed(2, 3);
    const large = await seed(2, 60);
    let smallResult: any;
    let largeResult: any;
    const smallCount = await service.countStatements(async () => (smallResult = await nested(small)));
    const largeCount = await service.countStatements(async () => (largeResult = await nested(large)));
    expect(smallResult.errors).toBeUndefined();
    expect(largeResult.errors).toBeUndefined();
    expect(largeResult.data.d1.comments.nodes).toHaveLength(60);
    expect(new Set(largeResult.data.d1.comments.nodes.map((n: any) => n.user.type))).toEqual(new Set(['Student', 'Collaborator', 'Admin']));
    expect(largeCount).toBe(smallCount);
  });
});
