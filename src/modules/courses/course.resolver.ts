import 'reflect-metadata';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { askedColumns } from '../../graphql/asked-columns.js';
import { narrowedTo } from '../../graphql/loaders.js';
import { inSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import { replaceLinks } from '../../db/links.js';
import type { Context } from '../../graphql/context.js';
import { given, parseId } from '../../graphql/ids.js';
import { mutate, uniqueConstraintField } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { windowOf } from '../../graphql/pagination.js';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { existingIds } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { courseRanks } from '../../content/order.js';
import { courseCondition } from '../../content/scope.js';
import { contentScope } from '../content/content-scope.js';
import { emitRowEvent } from '../events/events.js';
import { pathsOfProduct } from '../paths/path.loaders.js';
import { Path } from '../paths/path.type.js';
import { scopedList } from '../content/content-order.js';
import { withScopedShow } from '../content/content-show.js';
import { scopeOf, withModuleScope, withScope } from '../content/content-view.js';
import { duplicateCourse } from './course-duplicate.js';
import { CourseInput, CoursesArgs } from './course.input.js';
import { courseById, moduleIdsOfCourse, modulesOfCourse, pathsOfCourse } from './course.loaders.js';
import { courseModuleLinks, courseModules, type CourseRow, courses } from './course.table.js';
import { Course, CourseConnection, CourseModule } from './course.type.js';

/** The columns the computed fields of a module read, that a course's modules read only the asked columns with: its lessons load by its id. */
const moduleNeeds = { lessons: ['id'] } as const;

uniqueConstraintField('courses_school_id_code_key', 'code');

/** Checks a course input (the course as it will be) and resolves its modules within the school. */
async function checkCourse(tx: Queryable, schoolId: number, input: CourseInput, current?: CourseRow) {
  const checks = new Checks();
  if (current) checks.notCleared('name', input.name);
  else checks.required('name', input.name);
  checks.notCleared('ready', input.ready).range('duration', input.duration, 0);
  const moduleIds = await existingIds(tx, checks, 'courseModulesIds', courseModules, input.courseModulesIds, schoolId);
  checks.throwIfAny();
  const { courseModulesIds: _m, ...columns } = given(input);
  const values = { ...columns } as Partial<typeof courses.$inferInsert>;
  if (typeof values.name === 'string') values.name = values.name.trim();
  // A code is trimmed; a blank one means none (so blank codes never collide).
  if (input.code !== undefined) values.code = input.code?.trim() || null;
  return { values, moduleIds };
}

/** What a course's event says of it. */
const described = (row: CourseRow) => ({ name: row.name, code: row.code });

const CourseBase = resourceResolver({
  type: Course,
  byId: courseById,
  // A create or an update also writes the course's modules, in the course's order.
  columns: async (tx, input: CourseInput, { schoolId, current, afterWrite }) => {
    const { values, moduleIds } = await checkCourse(tx, schoolId, input, current);
    if (!input.courseModulesIds) return values;
    const l = courseModuleLinks;
    afterWrite((row) => replaceLinks(tx, l, l.courseId, row, l.courseModuleId, moduleIds, l.position));
    // A new list of modules changes the course too: its updatedAt moves.
    return current ? { ...values, updatedAt: new Date() } : values;
  },
  written: (tx, row, { op, input }) => {
    if (op === 'create') return emitRowEvent(tx, 'course.created', row, described(row));
    if (op === 'update') return emitRowEvent(tx, 'course.updated', row, { ...described(row), changed: Object.keys(given(input!)) });
    return emitRowEvent(tx, 'course.deleted', row, described(row));
  },
  descriptions: {
    create: 'Creates a course; courseModulesIds (modules of the school) give its modules in order.',
    update: 'Updates a course; courseModulesIds, when given, replaces its modules and their order.',
    delete:
      "Deletes a course (its links to modules, products and paths, and its classes). Its modules stay: they are the school's and may belong to other courses.",
  },
  // A course is read through a content scope (withScopedShow below) and listed in a product's order (`courses`).
  omit: ['show', 'list'],
});
export const CoursePayload = CourseBase.Payload;

@Resolver(() => Course)
@RelationFields<CourseRow>({
  courseModulesIds: { type: () => [ID], loader: moduleIdsOfCourse, key: 'id', description: "The course's module ids, in the course's order." },
})
export class CourseResolver extends withScopedShow(CourseBase, {
  description: 'A course; with schoolProductId or enrollmentId, only a course of that scope (404 otherwise).',
  inScope: courseCondition,
}) {
  @Query(() => CourseConnection, {
    description: "Courses of the school (id order), or of a school product or an enrollment's product (in the product's order).",
  })
  async courses(@Args(() => CoursesArgs) args: CoursesArgs, @Ctx() ctx: Context) {
    windowOf(args);
    const scope = await contentScope(ctx, args);
    return scopedList(ctx, scope, courses, inSchool(ctx, courses.schoolId), args, (productId) => courseRanks(ctx.db, [productId]));
  }

  @Mutation(() => CoursePayload, {
    description:
      'Copies a course with its modules, lessons, activities, exam questions, options and assertions, in one transaction. The copy is named "<name> (copy)" and coded "<code>-copy" (then -copy-2, -copy-3, ...; no code stays no code).',
  })
  duplicateCourse(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const courseId = parseId(id, 'Course');
    return mutate(ctx, 'course', async (tx) => {
      // The lock makes concurrent copies of one course take turns, so each finds the codes of the others.
      const source = await lockOwned(tx, ctx, courses, courseId, 'Course');
      return duplicateCourse(tx, source);
    });
  }

  @FieldResolver(() => [CourseModule], { description: "The course's modules, in the course's order." })
  async modules(@Root() course: CourseRow, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    const scope = scopeOf(course);
    // Only the columns asked for (plain fields, the id for the lessons), with the id and school.
    const columns = askedColumns(info, courseModules, [], moduleNeeds);
    return (await ctx.loaders.get(narrowedTo(modulesOfCourse, columns)).load(course.id)).map((m) => withModuleScope(m, scope));
  }

  @FieldResolver(() => [Path], {
    description: "The learning paths holding the course; read through a product or an enrollment, only that product's paths.",
  })
  async paths(@Root() course: CourseRow, @Ctx() ctx: Context) {
    const scope = scopeOf(course);
    if (scope?.kind === 'nothing') return [];
    const holding = await ctx.loaders.get(pathsOfCourse).load(course.id);
    if (!scope || scope.kind === 'school') return holding;
    const offered = new Set((await ctx.loaders.get(pathsOfProduct).load(scope.productId)).map((p) => p.id));
    return holding.filter((p) => offered.has(p.id)).map((p) => withScope(p, scope));
  }
}
