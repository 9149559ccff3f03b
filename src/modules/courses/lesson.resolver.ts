import 'reflect-metadata';
import { and, sql } from 'drizzle-orm';
import { Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { inSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { given, parseId } from '../../graphql/ids.js';
import { lockOwned } from '../../graphql/owned.js';
import { windowOf } from '../../graphql/pagination.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { lessonRanks, moduleLessonRanks } from '../../content/order.js';
import { type ContentScope, listedLessonCondition, moduleCondition } from '../../content/scope.js';
import { contentScope, requireEnrollmentForStudent } from '../content/content-scope.js';
import { emitEvent } from '../events/events.js';
import { mediaById } from '../media/media.loaders.js';
import { media } from '../media/media.table.js';
import { Media } from '../media/media.type.js';
import { emptyConnection, rankedPage, scopedList } from '../content/content-order.js';
import { scopedPage, scopedRow } from '../content/content-read.js';
import { withScopedShow } from '../content/content-show.js';
import { releaseOf, scopeOf, withLocks, withModuleScope } from '../content/content-view.js';
import type { ConnectionData } from '../../graphql/pagination.js';
import { LessonInput, LessonsArgs } from './course.input.js';
import { courseModuleById, lessonById } from './course.loaders.js';
import { courseModules, type LessonRow, lessons } from './course.table.js';
import { CourseModule, Lesson, LessonConnection } from './course.type.js';


const guardStudent = (ctx: Context, scope: ContentScope) =>
  requireEnrollmentForStudent(ctx, scope, 'lessons', '/enrollments/:id/lessons');

/** Lessons read through an enrollment carry their release there: locked ones show when they open, and no content to a student. */
async function marked(ctx: Context, scope: ContentScope, page: ConnectionData<LessonRow>): Promise<ConnectionData<LessonRow>> {
  return scope.kind === 'enrollment' ? { ...page, nodes: await withLocks(ctx, scope, page.nodes) } : page;
}

/** Checks a lesson input and resolves its media and module within the school. */
async function checkLesson(tx: Queryable, schoolId: number, input: LessonInput, current?: LessonRow) {
  const checks = new Checks();
  if (current) checks.notCleared('title', input.title).notCleared('type', input.type);
  else checks.required('title', input.title).required('type', input.type);
  checks
    .notCleared('available', input.available)
    .notCleared('unlockCertificate', input.unlockCertificate)
    .range('minGrade', input.minGrade, 0)
    .range('releaseAfter', input.releaseAfter, 0)
    .range('position', input.position, 0);
  const mediaId = await existingId(tx, checks, 'mediaId', media, input.mediaId, schoolId);
  const moduleId = await existingId(tx, checks, 'courseModuleId', courseModules, input.courseModuleId, schoolId);
  checks.throwIfAny();
  const { mediaId: _m, courseModuleId: _c, position: _p, ...columns } = given(input);
  const values = { ...columns } as Partial<typeof lessons.$inferInsert>;
  if (typeof values.title === 'string') values.title = values.title.trim();
  if (input.mediaId !== undefined) values.mediaId = mediaId;
  if (input.courseModuleId !== undefined) values.courseModuleId = moduleId;
  return values;
}

/**
 * Where the lesson goes in its module: the given position, else (a new lesson, a lesson moving to
 * another module, or position null) after the module's last lesson. The module's row is locked so
 * concurrent appends take turns.
 */
async function placement(tx: Queryable, ctx: Context, input: LessonInput, moduleId: number | null | undefined, moved: boolean) {
  if (typeof input.position === 'number') return { position: input.position };
  if (!moved && input.position === undefined) return {};
  if (!moduleId) return { position: 0 };
  await lockOwned(tx, ctx, courseModules, moduleId, 'CourseModule');
  return { position: sql`(select coalesce(max(${lessons.position}) + 1, 0) from ${lessons} where ${lessons.courseModuleId} = ${moduleId})` };
}

/** What a lesson's event says of it. */
const described = (row: LessonRow) => ({ title: row.title, courseModuleId: row.courseModuleId });

const LessonBase = resourceResolver({
  type: Lesson,
  byId: lessonById,
  columns: async (tx, input: LessonInput, { ctx, schoolId, current }) => {
    const values = await checkLesson(tx, schoolId, input, current);
    if (!current) return { ...values, ...(await placement(tx, ctx, input, values.courseModuleId, true)) };
    const moduleId = values.courseModuleId !== undefined ? values.courseModuleId : current.courseModuleId;
    const moved = values.courseModuleId !== undefined && values.courseModuleId !== current.courseModuleId;
    return { ...values, ...(await placement(tx, ctx, input, moduleId, moved)) };
  },
  written: (tx, row, { op, input }) => {
    const event = { schoolId: row.schoolId, subjectType: 'Lesson', subjectId: row.id } as const;
    const payload = described(row);
    if (op === 'create') return emitEvent(tx, { ...event, name: 'lesson.created', payload });
    if (op === 'delete') return emitEvent(tx, { ...event, name: 'lesson.deleted', payload });
    return emitEvent(tx, { ...event, name: 'lesson.updated', payload: { ...payload, changed: Object.keys(given(input!)) } });
  },
  descriptions: {
    create: 'Creates a lesson; with courseModuleId, in that module (at the end unless position is given).',
    update: 'Updates a lesson; a new courseModuleId moves it (to the end of that module unless position is given).',
  },
  omit: ['show', 'list'],
});

@Resolver(() => Lesson)
export class LessonResolver extends withScopedShow(LessonBase, {
  description:
    'A lesson; with schoolProductId or enrollmentId, only a lesson of that scope and 404 otherwise. Through an enrollment, an available lesson not released yet reads with locked and releasedAt, and to a student without its content (null description and media, no activities or extra contents). Students need enrollmentId.',
  inScope: listedLessonCondition,
  guard: guardStudent,
  shown: async (ctx, scope, row) => (scope.kind === 'enrollment' ? (await withLocks(ctx, scope, [row as LessonRow]))[0] : row),
}) {
  @Query(() => LessonConnection, {
    description:
      "Lessons of the school (id order), of a module (courseModuleId, by position), or of a product's or enrollment's courses (in the product's order). Through an enrollment, its available lessons: those not released yet with locked and releasedAt, and to a student without their content. Students need enrollmentId.",
  })
  async lessons(@Args(() => LessonsArgs) args: LessonsArgs, @Ctx() ctx: Context) {
    windowOf(args);
    const scope = await contentScope(ctx, args);
    guardStudent(ctx, scope);
    if (scope.kind === 'nothing') return emptyConnection();
    const where = and(inSchool(ctx, lessons.schoolId), listedLessonCondition(ctx, scope));
    if (args.courseModuleId !== undefined && args.courseModuleId !== null) {
      const moduleId = parseId(args.courseModuleId, 'CourseModule');
      const module = await scopedRow(ctx, scope, courseModuleById, courseModules, moduleId, moduleCondition(ctx, scope, courseModules.id), 'CourseModule');
      return marked(ctx, scope, scopedPage(await rankedPage(ctx, lessons, moduleLessonRanks(ctx.db, module.id), where, args), scope));
    }
    return marked(ctx, scope, await scopedList(ctx, scope, lessons, where, args, (productId) => lessonRanks(ctx.db, [productId])));
  }

  @FieldResolver(() => Boolean, {
    description:
      'Read through an enrollment: true while the lesson is not released to it yet (its release_at or release_after days to come); its content is not shown to the student until releasedAt. False elsewhere.',
  })
  locked(@Root() lesson: LessonRow): boolean {
    return releaseOf(lesson)?.released === false;
  }

  @FieldResolver(() => Date, {
    nullable: true,
    description:
      "Read through an enrollment: when the lesson opens (or opened) to it, the later of releaseAt and releaseAfter days after the enrollment's activation. Null for a lesson open from the start, and outside an enrollment.",
  })
  releasedAt(@Root() lesson: LessonRow): Date | null {
    return releaseOf(lesson)?.releasedAt ?? null;
  }

  @FieldResolver(() => CourseModule, { nullable: true, description: 'The module holding the lesson (null for a draft).' })
  async module(@Root() lesson: LessonRow, @Ctx() ctx: Context) {
    if (lesson.courseModuleId === null) return null;
    const module = await ctx.loaders.get(courseModuleById).load(lesson.courseModuleId);
    return module && withModuleScope(module, scopeOf(lesson));
  }

  @FieldResolver(() => Media, { nullable: true })
  media(@Root() lesson: LessonRow, @Ctx() ctx: Context) {
    return lesson.mediaId === null ? null : ctx.loaders.get(mediaById).load(lesson.mediaId);
  }
}
