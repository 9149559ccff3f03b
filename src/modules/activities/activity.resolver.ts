import 'reflect-metadata';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { Resolver } from 'type-graphql';
import { inSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { rowMatch } from '../../graphql/filters.js';
import { parseId } from '../../graphql/ids.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { type ContentScope, lessonCondition } from '../../content/scope.js';
import { contentScope, requireEnrollmentForStudent } from '../content/content-scope.js';
import { withScopedShow } from '../content/content-show.js';
import { courseModuleLinks, courses, lessons } from '../courses/course.table.js';
import { ActivitiesArgs, ActivityInput } from './activity.input.js';
import { lessonById } from '../courses/course.loaders.js';
import { activityById } from './activity.loaders.js';
import { checkActivity } from './activity.rules.js';
import { activities } from './activity.table.js';
import { Activity } from './activity.type.js';
import { removeQuestions, writeQuestions } from './activity.write.js';

/** Ids of the lessons a scope shows (a subquery); for an enrollment, released ones only. */
function scopedLessonIds(ctx: Context, scope: ContentScope) {
  return ctx.db
    .select({ id: lessons.id })
    .from(lessons)
    .where(and(inSchool(ctx, lessons.schoolId), lessonCondition(ctx, scope)));
}

/** Ids of the lessons of a course: those of the modules linked to it (a subquery). */
function courseLessonIds(ctx: Context, courseId: number) {
  const modules = ctx.db.select({ id: courseModuleLinks.courseModuleId }).from(courseModuleLinks).where(eq(courseModuleLinks.courseId, courseId));
  return ctx.db.select({ id: lessons.id }).from(lessons).where(inArray(lessons.courseModuleId, modules));
}

async function courseOr404(ctx: Context, id: string): Promise<number> {
  const courseId = parseId(id, 'Course');
  const [course] = await ctx.db
    .select({ id: courses.id })
    .from(courses)
    .where(and(eq(courses.id, courseId), inSchool(ctx, courses.schoolId)));
  if (!course) throw notFound('Course');
  return course.id;
}

/**
 * Students read activities only as their enrollments show them (released lessons), never the whole
 * school's or a product's: the rule the lessons follow, so an activity never shows an unreleased lesson.
 */
const guardStudent = (ctx: Context, scope: ContentScope) =>
  requireEnrollmentForStudent(ctx, scope, 'activities', '/enrollments/:id/activities');

const ActivityBase = resourceResolver({
  type: Activity,
  plural: 'activities',
  byId: activityById,
  columns: async (tx, input: ActivityInput, { schoolId, current, afterWrite }) => {
    const { values, questions } = await checkActivity(tx, schoolId, input, current);
    if (!questions) return values;
    afterWrite(async (row) => {
      if (current) await removeQuestions(tx, row.id);
      await writeQuestions(tx, row.schoolId, row.id, questions);
    });
    // New questions change the activity too: its updatedAt moves.
    return current ? { ...values, updatedAt: new Date() } : values;
  },
  listArgs: ActivitiesArgs,
  listWhere: async (ctx, args: ActivitiesArgs) => {
    const scope = await contentScope(ctx, args);
    guardStudent(ctx, scope);
    const conditions: (SQL | undefined)[] = [];
    if (args.courseId !== undefined && args.courseId !== null)
      conditions.push(inArray(activities.examLessonId, courseLessonIds(ctx, await courseOr404(ctx, args.courseId))));
    conditions.push(await rowMatch(ctx, activities.examLessonId, lessonById, args.lessonId, 'Lesson'));
    if (scope.kind !== 'school') conditions.push(inArray(activities.examLessonId, scopedLessonIds(ctx, scope)));
    return and(...conditions);
  },
  descriptions: {
    list:
      'Activities of the school (id order), narrowed to a course, a lesson, a school product or what an enrollment may see (arguments combine). Students need enrollmentId.',
    create: 'Creates an activity and its questions, options and assertions in one transaction.',
    update: 'Updates an activity; examQuestionsAttributes, when given, replaces its questions (refused while they have answers).',
    delete: 'Deletes an activity with its questions and the attempts at it.',
  },
  // One activity is read through a content scope (a product's, an enrollment's released lessons): withScopedShow below.
  omit: ['show'],
});

@Resolver(() => Activity)
export class ActivityResolver extends withScopedShow(ActivityBase, {
  description:
    "An activity; with schoolProductId or enrollmentId, only when its lesson is in that scope (an enrollment's: released). Students need enrollmentId.",
  inScope: (ctx, scope) => inArray(activities.examLessonId, scopedLessonIds(ctx, scope)),
  guard: guardStudent,
}) {}
