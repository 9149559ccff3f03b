import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { collaborativeComments, collaborativeDiscussions } from '../../src/modules/collaborative/collaborative.table.js';
import { lessons } from '../../src/modules/courses/course.table.js';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { forumAnswers, forumQuestions, forums, forumSections } from '../../src/modules/forums/forum.table.js';
import { notifications } from '../../src/modules/notifications/notification.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { expectNoWrite as expectNoWriteOf, fingerprint } from './fingerprint.js';
import type { Client, Reply, Service, TestSchool } from './service.js';

// Helpers shared by the forum and collaborative-comment tests (test/forum-*.test.ts,
// test/forums.*.test.ts, test/collaborative-comments.*.test.ts). Fixture rows whose API other
// modules build (users, lessons) go straight into the tables.

let serial = 0;
export const next = () => ++serial;

export type Kind = 'Student' | 'Collaborator' | 'Admin';

/** A user of the school and a credential bound to it. */
export async function person(service: Service, school: TestSchool, type: Kind, name?: string) {
  const n = next();
  const [user] = await service.db
    .insert(users)
    .values({ schoolId: school.id, type, fullName: name ?? `${type} ${n}`, email: `${type.toLowerCase()}${n}-${process.pid}@example.com` })
    .returning();
  const role = type === 'Admin' ? 'admin' : type === 'Collaborator' ? 'collaborator' : 'student';
  const client = await service.token(role, school.id, user.id);
  return { user, client };
}

export async function lesson(service: Service, schoolId: number) {
  const [row] = await service.db.insert(lessons).values({ schoolId, title: `Lesson ${next()}`, type: 'Text' }).returning();
  return row;
}

export async function section(client: Client, forumId: number, fields: Record<string, unknown> = {}) {
  const res = await client.post(`/forums/${forumId}/forum_sections`, {
    forum_section: { title: `Section ${next()}`, description: 'About things', ...fields },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; sequence: number; forum_id: number; parent_forum_section_id: number | null };
}

export async function question(client: Client, sectionId: number, fields: Record<string, unknown> = {}) {
  const res = await client.post(`/forum_sections/${sectionId}/forum_questions`, {
    forum_question: { title: `Question ${next()}`, description: 'How does it work?', ...fields },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; user_id: number | null; forum_section_id: number };
}

export async function answer(client: Client, questionId: number, input: Record<string, unknown> = {}) {
  const res = await client.graphql(
    `mutation ($q: ID!, $input: ForumAnswerInput!) { createForumAnswer(forumQuestionId: $q, input: $input) { forumAnswer { id userId text } errors { field code message } } }`,
    { q: String(questionId), input: { text: 'Like this', ...input } },
  );
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.data.createForumAnswer.errors).toEqual([]);
  return res.data.createForumAnswer.forumAnswer as { id: string; userId: string | null; text: string };
}

export async function createForum(client: Client, title = `Forum ${next()}`) {
  const res = await client.graphql(`mutation ($input: ForumInput!) { createForum(input: $input) { forum { id title } errors { field code } } }`, {
    input: { title },
  });
  expect(res.data.createForum.errors).toEqual([]);
  return Number(res.data.createForum.forum.id);
}

export async function discussion(client: Client, input: Record<string, unknown> = {}) {
  const res = await client.graphql(
    `mutation ($input: CollaborativeDiscussionInput!) { createCollaborativeDiscussion(input: $input) { collaborativeDiscussion { id title lessonId } errors { field code message } } }`,
    { input: { title: `Discussion ${next()}`, ...input } },
  );
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.data.createCollaborativeDiscussion.errors).toEqual([]);
  return Number(res.data.createCollaborativeDiscussion.collaborativeDiscussion.id);
}

/** Every row the forum and collaborative families write, to prove a refused request changed nothing. */
export const snapshot = (service: Service) =>
  fingerprint(() => service, {
    forums,
    sections: forumSections,
    questions: forumQuestions,
    answers: forumAnswers,
    discussions: collaborativeDiscussions,
    comments: collaborativeComments,
    notifications,
    events: domainEvents,
  })();

export function expectNoWrite(service: Service, work: () => Promise<Reply>): Promise<Reply> {
  return expectNoWriteOf(() => snapshot(service), work);
}

export const eventsOf = (service: Service, name: string, subjectId: number) =>
  service.db.select().from(domainEvents).where(eq(domainEvents.subjectId, subjectId)).then((rows) => rows.filter((r) => r.name === name));

export const notificationsWithUrl = (service: Service, url: string) =>
  service.db.select().from(notifications).where(eq(notifications.url, url)).orderBy(asc(notifications.userId));

export const sectionRow = (service: Service, id: number) =>
  service.db.select().from(forumSections).where(eq(forumSections.id, id)).then((r) => r[0]);
export const questionRow = (service: Service, id: number) =>
  service.db.select().from(forumQuestions).where(eq(forumQuestions.id, id)).then((r) => r[0]);
export const commentRow = (service: Service, id: number) =>
  service.db.select().from(collaborativeComments).where(eq(collaborativeComments.id, id)).then((r) => r[0]);
