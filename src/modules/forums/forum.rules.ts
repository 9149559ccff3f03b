import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { forbidden } from '../../graphql/errors.js';
import { idOrNull } from '../../graphql/ids.js';
import type { Checks } from '../../graphql/validation.js';
import { emitEvent, emitRowEvent } from '../events/events.js';
import { notify } from '../notifications/notification.notify.js';
import { users } from '../users/user.table.js';
import { isStaff, STAFF_USER_TYPES, staffOfSchool } from './forum-author.js';
import { forumAnswers, type ForumAnswerRow, forumQuestions, forums, forumSections, type ForumQuestionRow, type ForumSectionRow } from './forum.table.js';

/** A forum of the school, locked for the transaction (it serializes the sequence numbering of its sections). */
export async function lockForum(tx: Queryable, schoolId: number, forumId: number) {
  const [row] = await tx.select().from(forums).where(and(eq(forums.id, forumId), eq(forums.schoolId, schoolId))).for('update');
  return row ?? null;
}

/** The next sequence among the children of `parentId` (top-level sections when null): max + 1, 1 for the first. */
export async function nextSequence(tx: Queryable, forumId: number, parentId: number | null): Promise<number> {
  const [row] = await tx
    .select({ next: sql<number>`coalesce(max(${forumSections.sequence}), 0) + 1` })
    .from(forumSections)
    .where(and(eq(forumSections.forumId, forumId), parentId === null ? isNull(forumSections.parentForumSectionId) : eq(forumSections.parentForumSectionId, parentId)));
  return Number(row.next);
}

/**
 * A parent section for a section of `forumId`: a section of the school in the same forum, and, for an
 * existing section, not the section itself nor one of its descendants. The cycle check walks up from
 * the new parent in one recursive statement: a cycle is the section showing up among its ancestors.
 */
export async function checkParent(
  tx: Queryable,
  checks: Checks,
  schoolId: number,
  forumId: number,
  given: string,
  selfId?: number,
): Promise<number | null> {
  const parentId = idOrNull(given);
  // One statement: the parent, its forum, and whether `selfId` is among the parent's ancestors
  // (itself included), walking up the tree with a recursive CTE (`union` stops on a damaged cycle).
  const cycle =
    selfId === undefined
      ? sql<boolean>`false`
      : sql<boolean>`(with recursive ancestors(id, parent_id) as (
          select s.id, s.parent_forum_section_id from ${forumSections} s where s.id = ${parentId}
          union
          select s.id, s.parent_forum_section_id from ${forumSections} s inner join ancestors a on s.id = a.parent_id
        ) select exists (select 1 from ancestors where ancestors.id = ${selfId}))`;
  const [parent] =
    parentId === null
      ? []
      : await tx
          .select({ id: forumSections.id, forumId: forumSections.forumId, cycle })
          .from(forumSections)
          .where(and(eq(forumSections.id, parentId), eq(forumSections.schoolId, schoolId)));
  if (!parent) checks.add('parentForumSectionId', 'not_found', 'must be a section of this school');
  else if (parent.forumId !== forumId) checks.add('parentForumSectionId', 'invalid', 'must be a section of the same forum');
  else if (parent.cycle) checks.add('parentForumSectionId', 'invalid', 'cannot be the section itself or one of its subsections');
  else return parent.id;
  return null;
}

/** Moves a section and all its subsections to another forum: one recursive statement. */
export async function moveSubtree(tx: Queryable, section: ForumSectionRow, forumId: number) {
  await tx.execute(sql`
    with recursive subtree(id) as (
      select ${section.id}::integer
      union
      select s.id from ${forumSections} s inner join subtree t on s.parent_forum_section_id = t.id
    )
    update ${forumSections} set forum_id = ${forumId}, updated_at = now() where id in (select id from subtree) and school_id = ${section.schoolId}`);
}

/**
 * The section a question moves to: a section of the school (422 not_found) in the same forum as its
 * current section (422 invalid otherwise). One statement reads both sections.
 */
export async function checkMove(tx: Queryable, checks: Checks, field: string, question: ForumQuestionRow, given: string | number): Promise<number | null> {
  const targetId = idOrNull(given);
  if (targetId === null) {
    checks.add(field, 'not_found', 'must be a section of this school');
    return null;
  }
  if (targetId === question.forumSectionId) return targetId;
  const found = await tx
    .select({ id: forumSections.id, forumId: forumSections.forumId })
    .from(forumSections)
    .where(and(inArray(forumSections.id, [targetId, question.forumSectionId]), eq(forumSections.schoolId, question.schoolId)));
  const target = found.find((s) => s.id === targetId);
  const current = found.find((s) => s.id === question.forumSectionId);
  if (!target) checks.add(field, 'not_found', 'must be a section of this school');
  else if (target.forumId !== current?.forumId) checks.add(field, 'invalid', 'must be a section of the same forum');
  else return targetId;
  return null;
}

/** A student credential may change only its own posts; staff credentials any post of the school. */
export function assertMayEdit(ctx: Context, authorId: number | null): void {
  if (isStaff(ctx)) return;
  if (authorId === null || authorId !== ctx.credential?.userId) throw forbidden('Only the author or the staff of the school may change this');
}

/**
 * The callbacks of a new question: every collaborator and admin of the school (but the author) is
 * notified through `notify()` (rows, `notification.created` events and subscriptions, in the question's
 * transaction), and the `forum_question.created` event is emitted. Not run for a question created with created_at.
 */
export async function questionCreated(tx: Queryable, question: ForumQuestionRow) {
  const text = `New forum question: ${question.title}`;
  const url = `/forum_questions/${question.id}`;
  const recipients = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(staffOfSchool(question.schoolId), question.userId === null ? undefined : ne(users.id, question.userId)));
  await notify(tx, question.schoolId, recipients.map((r) => ({ userId: r.id, text, url })));
  const payload = { id: question.id, forum_section_id: question.forumSectionId, user_id: question.userId, title: question.title };
  await emitRowEvent(tx, 'forum_question.created', question, payload);
}

/** A user who answers for the school (a collaborator or an admin), as a condition on `users`. */
const staffUser = inArray(users.type, [...STAFF_USER_TYPES]);

/**
 * Before a new answer's insert: staff answers of one question take turns (the question's lock), so
 * exactly one of them is its first (`answerCreated`).
 */
export async function takeStaffTurn(tx: Queryable, questionId: number, userId: number | null) {
  const byStaff = userId !== null && (await tx.select({ id: users.id }).from(users).where(and(eq(users.id, userId), staffUser))).length > 0;
  if (byStaff) await tx.select({ id: forumQuestions.id }).from(forumQuestions).where(eq(forumQuestions.id, questionId)).for('update');
}

/**
 * The question's author hears of an answer by someone else (staff, or another student); never of
 * its own. A question without an author (an import) notifies nobody.
 */
async function notifyAsker(tx: Queryable, answer: ForumAnswerRow) {
  const [question] = await tx
    .select({ userId: forumQuestions.userId, title: forumQuestions.title })
    .from(forumQuestions)
    .where(and(eq(forumQuestions.id, answer.forumQuestionId), eq(forumQuestions.schoolId, answer.schoolId)));
  if (!question || question.userId === null || question.userId === answer.userId) return;
  await notify(tx, answer.schoolId, [{ userId: question.userId, text: `New answer to your question: ${question.title}`, url: `/forum_questions/${answer.forumQuestionId}` }]);
}

/**
 * The callbacks of a new answer: `forum_answer.created`, the question's author notified (`notifyAsker`),
 * and `forum_question.answered` when it is the question's first answer by staff (the only staff answer, `takeStaffTurn` having serialized them).
 */
export async function answerCreated(tx: Queryable, answer: ForumAnswerRow) {
  const { schoolId, forumQuestionId: questionId, userId } = answer;
  const created = { id: answer.id, forum_question_id: questionId, user_id: userId };
  await emitRowEvent(tx, 'forum_answer.created', answer, created);
  await notifyAsker(tx, answer);
  const staffAnswers = await tx
    .select({ id: forumAnswers.id })
    .from(forumAnswers)
    .innerJoin(users, eq(users.id, forumAnswers.userId))
    .where(and(eq(forumAnswers.forumQuestionId, questionId), staffUser))
    .limit(2);
  if (staffAnswers.length !== 1 || staffAnswers[0].id !== answer.id) return;
  const answered = { id: questionId, forum_answer_id: answer.id, user_id: userId };
  await emitEvent(tx, { schoolId, name: 'forum_question.answered', subjectType: 'ForumQuestion', subjectId: questionId, payload: answered });
}
