import 'reflect-metadata';
import { sql } from 'drizzle-orm';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, ownStudentId } from '../../auth/tenancy.js';
import { askedColumns } from '../../graphql/asked-columns.js';
import { narrowedTo } from '../../graphql/loaders.js';
import type { Context } from '../../graphql/context.js';
import { given, parseId } from '../../graphql/ids.js';
import { mutate } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { windowOf } from '../../graphql/pagination.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { courseModuleRanks, moduleRanks } from '../../content/order.js';
import { courseCondition, moduleCondition } from '../../content/scope.js';
import { contentScope } from '../content/content-scope.js';
import { emptyConnection, rankedPage, scopedList } from '../content/content-order.js';
import { scopedPage, scopedRow } from '../content/content-read.js';
import { withScopedShow } from '../content/content-show.js';
import { scopeOf, visibleLessons } from '../content/content-view.js';
import { CourseModuleInput, CourseModulesArgs } from './course.input.js';
import { courseById, courseModuleById, lessonsOfModule } from './course.loaders.js';
import { courseModuleLinks, courseModules, type CourseModuleRow, courses, lessons } from './course.table.js';
import { CourseModule, CourseModuleConnection, Lesson } from './course.type.js';

const CourseModuleBase = resourceResolver({
  type: CourseModule,
  byId: courseModuleById,
  // Only updates go through here: a module is created inside a course (createCourseModule below).
  columns: (_tx, input: CourseModuleInput) => {
    new Checks().notCleared('name', input.name).notCleared('description', input.description).throwIfAny();
    const values = given(input);
    if (typeof values.name === 'string') values.name = values.name.trim();
    return values as Partial<CourseModuleRow>;
  },
  descriptions: {
    update: 'Updates a module (name and description may not be cleared).',
    delete: 'Deletes a module from every course holding it, with its lessons.',
  },
  omit: ['show', 'list', 'create'],
});
export const CourseModulePayload = CourseModuleBase.Payload;

@Resolver(() => CourseModule)
export class CourseModuleResolver extends withScopedShow(CourseModuleBase, {
  description: 'A course module; with schoolProductId or enrollmentId, only a module of that scope (404 otherwise).',
  inScope: moduleCondition,
}) {
  @Query(() => CourseModuleConnection, {
    description:
      "Modules of a course (courseId, in the course's order), of the school (id order), or of a product's or enrollment's courses (in the product's order). With a scope, the course must be in it (404 otherwise); an inactive enrollment shows none.",
  })
  async courseModules(@Args(() => CourseModulesArgs) args: CourseModulesArgs, @Ctx() ctx: Context) {
    windowOf(args);
    const scope = await contentScope(ctx, args);
    const where = inSchool(ctx, courseModules.schoolId);
    if (scope.kind === 'nothing') return emptyConnection();
    if (args.courseId !== undefined && args.courseId !== null) {
      const course = await scopedRow(ctx, scope, courseById, courses, parseId(args.courseId, 'Course'), courseCondition(ctx, scope, courses.id), 'Course');
      return scopedPage(await rankedPage(ctx, courseModules, courseModuleRanks(ctx.db, course.id), where, args), scope);
    }
    return scopedList(ctx, scope, courseModules, where, args, (productId) => moduleRanks(ctx.db, [productId]));
  }

  @Mutation(() => CourseModulePayload, { description: 'Creates a module at the end of the course (a course of the school: 404 otherwise).' })
  createCourseModule(
    @Arg('courseId', () => ID) courseId: string,
    @Arg('input', () => CourseModuleInput) input: CourseModuleInput,
    @Ctx() ctx: Context,
  ) {
    const id = parseId(courseId, 'Course');
    return mutate(ctx, 'courseModule', async (tx) => {
      // The lock orders concurrent appends to one course, so positions stay distinct.
      const course = await lockOwned(tx, ctx, courses, id, 'Course');
      new Checks().required('name', input.name).required('description', input.description).throwIfAny();
      const [row] = await tx
        .insert(courseModules)
        .values({ schoolId: course.schoolId, name: input.name!.trim(), description: input.description! })
        .returning();
      const l = courseModuleLinks;
      const next = sql`(select coalesce(max(${l.position}) + 1, 0) from ${l} where ${l.courseId} = ${course.id})`;
      await tx.insert(l).values({ schoolId: course.schoolId, courseId: course.id, courseModuleId: row.id, position: next });
      return row;
    });
  }

  @FieldResolver(() => [Lesson], {
    description:
      "The module's lessons by position. Read through an enrollment, only the released ones; a student sees lessons only through its enrollments.",
  })
  async lessons(@Root() module: CourseModuleRow, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    const scope = scopeOf(module);
    // Staff outside an enrollment see the rows as read: only the columns asked for are (an enrollment's reads
    // mark and filter them); the narrowed loader adds the keys itself (the school for the tenancy check).
    const columns = scope === undefined && ownStudentId(ctx) === null ? askedColumns(info, lessons, []) : null;
    return visibleLessons(ctx, scope, await ctx.loaders.get(narrowedTo(lessonsOfModule, columns)).load(module.id));
  }
}
