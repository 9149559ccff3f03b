import { and, isNull, sql, type SQL } from 'drizzle-orm';
import { inList } from '../../db/columns.js';
import { inSchool } from '../../auth/tenancy.js';
import { defineLoader } from '../../graphql/context.js';
import { byIdLoader, childrenLoader } from '../../graphql/loaders.js';
import { childConnectionLoaders } from '../../graphql/pagination.js';
import { users } from '../users/user.table.js';
import { STAFF_USER_TYPES } from './forum-author.js';
import { forumAnswers, forumQuestions, forums, forumSections } from './forum.table.js';

export const forumById = byIdLoader('forum.byId', forums);
export const sectionById = byIdLoader('forumSection.byId', forumSections);
export const questionById = byIdLoader('forumQuestion.byId', forumQuestions);
export const answerById = byIdLoader('forumAnswer.byId', forumAnswers);

/** Every section of a forum, in sequence order. */
export const sectionsOfForum = childrenLoader('forum.sections', forumSections, forumSections.forumId, [forumSections.sequence]);
export const rootSectionsOfForum = childrenLoader('forum.rootSections', forumSections, forumSections.forumId, [forumSections.sequence], () =>
  isNull(forumSections.parentForumSectionId),
);
export const childrenOfSection = childrenLoader('forumSection.children', forumSections, forumSections.parentForumSectionId, [forumSections.sequence]);
export const questionsOfSection = childConnectionLoaders('forumSection.questions', forumQuestions, forumQuestions.forumSectionId, (ctx) =>
  inSchool(ctx, forumQuestions.schoolId),
);
export const answersOfQuestion = childrenLoader('forumQuestion.answers', forumAnswers, forumAnswers.forumQuestionId);

const staffTypes = sql.join(STAFF_USER_TYPES.map((t) => sql`${t}`), sql`, `);

/** A collaborator or an admin answered the question (correlated with the outer `forum_questions` row). */
export const answeredByStaff: SQL = sql`exists (select 1 from ${forumAnswers} inner join ${users} on ${users.id} = ${forumAnswers.userId} where ${forumAnswers.forumQuestionId} = ${forumQuestions.id} and ${users.type} in (${staffTypes}))`;

/** Whether each question has an answer by a collaborator or admin: one statement per batch. */
export const answeredByAdminOfQuestion = defineLoader<number, boolean>('forumQuestion.answeredByAdmin', async (ctx, ids) => {
  const rows = await ctx.db
    .selectDistinct({ id: forumAnswers.forumQuestionId })
    .from(forumAnswers)
    .innerJoin(users, sql`${users.id} = ${forumAnswers.userId}`)
    .where(and(inList(forumAnswers.forumQuestionId, [...ids]), inList(users.type, [...STAFF_USER_TYPES]), inSchool(ctx, forumAnswers.schoolId)));
  const answered = new Set(rows.map((r) => r.id));
  return ids.map((id) => answered.has(id));
});
