import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import { inList } from '../../db/columns.js';
import { inSchool, ownRows, ownStudentId } from '../../auth/tenancy.js';
import { type Context, defineLoader } from '../../graphql/context.js';
import { byIdLoader, childrenLoader } from '../../graphql/loaders.js';
import {
  activities,
  examAnswers,
  examQuestionAnswers,
  examQuestionAssertions,
  type ExamQuestionAssertionRow,
  examQuestionOptions,
  examQuestions,
} from './activity.table.js';

export const activityById = byIdLoader('activity.byId', activities);
export const examQuestionById = byIdLoader('examQuestion.byId', examQuestions);
export const examQuestionOptionById = byIdLoader('examQuestionOption.byId', examQuestionOptions);

export const questionsOfActivity = childrenLoader('activity.questions', examQuestions, examQuestions.activityId, [examQuestions.position]);
export const optionsOfQuestion = childrenLoader('examQuestion.options', examQuestionOptions, examQuestionOptions.examQuestionId, [
  examQuestionOptions.position,
]);
export const activitiesOfLesson = childrenLoader('lesson.activities', activities, activities.examLessonId);

/** Both assertions of each associative option (null sides for other options). */
export const assertionsOfOption = defineLoader<number, { first: ExamQuestionAssertionRow | null; second: ExamQuestionAssertionRow | null }>(
  'examQuestionOption.assertions',
  async (ctx, optionIds) => {
    const rows = await ctx.db
      .select()
      .from(examQuestionAssertions)
      .where(and(inList(examQuestionAssertions.optionId, [...optionIds]), inSchool(ctx, examQuestionAssertions.schoolId)))
      .orderBy(asc(examQuestionAssertions.id));
    const byOption = new Map<number, { first: ExamQuestionAssertionRow | null; second: ExamQuestionAssertionRow | null }>();
    for (const row of rows) {
      const pair = byOption.get(row.optionId) ?? { first: null, second: null };
      pair[row.side] = row;
      byOption.set(row.optionId, pair);
    }
    return optionIds.map((id) => byOption.get(id) ?? { first: null, second: null });
  },
);

/** The exam answers (attempts) the caller may see: the school's, and for a student credential only its own. */
export function visibleExamAnswers(ctx: Context): SQL | undefined {
  return and(inSchool(ctx, examAnswers.schoolId), ownRows(ctx, examAnswers.userId));
}

/** Answers to questions the caller may see: those of attempts it may see. */
export function visibleQuestionAnswers(ctx: Context): SQL | undefined {
  const own = ownStudentId(ctx);
  return and(
    inSchool(ctx, examQuestionAnswers.schoolId),
    own === null
      ? undefined
      : inArray(examQuestionAnswers.examAnswerId, ctx.db.select({ id: examAnswers.id }).from(examAnswers).where(eq(examAnswers.userId, own))),
  );
}


export const examAnswerById = byIdLoader('examAnswer.byId', examAnswers, visibleExamAnswers);
export const examQuestionAnswerById = byIdLoader(
  'examQuestionAnswer.byId',
  examQuestionAnswers,
  visibleQuestionAnswers,
);

export const answersOfQuestion = childrenLoader(
  'examQuestion.answers',
  examQuestionAnswers,
  examQuestionAnswers.examQuestionId,
  [],
  visibleQuestionAnswers,
);
export const answersOfExamAnswer = childrenLoader(
  'examAnswer.questionAnswers',
  examQuestionAnswers,
  examQuestionAnswers.examAnswerId,
  [],
  visibleQuestionAnswers,
);
