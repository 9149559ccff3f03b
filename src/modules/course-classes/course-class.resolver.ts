import 'reflect-metadata';
import { and, eq, inArray, ne, type SQL } from 'drizzle-orm';
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { inSchool, oneSchool, writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { AppError, notFound } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload, uniqueConstraintField } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { paginate } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import { courseRanks } from '../../content/order.js';
import { courseById } from '../courses/course.loaders.js';
import { schoolProductById } from '../school-products/school-product.loaders.js';
import { courses } from '../courses/course.table.js';
import { CourseClassesArgs, CourseClassInput } from './course-class.input.js';
import { courseClassById } from './course-class.loaders.js';
import { courseClasses, type CourseClassRow } from './course-class.table.js';
import { CourseClass, CourseClassConnection } from './course-class.type.js';

export const CourseClassPayload = Payload(CourseClass, 'courseClass');
uniqueConstraintField('course_classes_school_id_code_key', 'code');
// The partial unique index is the last guard of "one main class per course" (the course lock comes first).
uniqueConstraintField('course_classes_course_id_main_key', 'main');

type Key = { id: number } | { code: string };

/** Exactly one of id and code names a course class. */
function oneOf(id: string | null | undefined, code: string | null | undefined): Key {
  const hasCode = typeof code === 'string' && code.trim() !== '';
  if ((id !== null && id !== undefined) === hasCode)
    throw new AppError('bad_request', 'Name the course class by id or by code (one of them)', hasCode ? ['id'] : ['code']);
  return hasCode ? { code: code!.trim() } : { id: parseId(id!, 'CourseClass') };
}

/** The row named by a key, in the school the caller reads or writes; codes need one school. */
function which(ctx: Context, key: Key): SQL | undefined {
  if ('id' in key) return and(eq(courseClasses.id, key.id), inSchool(ctx, courseClasses.schoolId));
  if (oneSchool(ctx) === null) throw new AppError('bad_request', 'Codes are unique within a school: name the school with the X-School-Id header');
  return and(eq(courseClasses.code, key.code), inSchool(ctx, courseClasses.schoolId));
}

/** Checks the class as it will be (`current` + `input`) and gives the columns to write. */
function checked(input: CourseClassInput, current?: CourseClassRow) {
  const values: Partial<typeof courseClasses.$inferInsert> = {};
  if (input.startAt !== undefined) values.startAt = input.startAt;
  if (input.endAt !== undefined) values.endAt = input.endAt;
  if (input.code !== undefined) values.code = input.code?.trim() || null;
  if (input.main !== undefined) values.main = input.main ?? false;
  const startAt = values.startAt !== undefined ? values.startAt : (current?.startAt ?? null);
  const endAt = values.endAt !== undefined ? values.endAt : (current?.endAt ?? null);
  const checks = new Checks();
  if (startAt && endAt && endAt.getTime() <= startAt.getTime()) checks.add('endAt', 'greater_than', 'must be after start_at');
  checks.throwIfAny();
  return values;
}

/** Unsets the course's main class (other than `keep`): the caller holds the course's lock. */
async function unsetMain(tx: Queryable, courseId: number, keep?: number) {
  await tx
    .update(courseClasses)
    .set({ main: false })
    .where(and(eq(courseClasses.courseId, courseId), eq(courseClasses.main, true), keep ? ne(courseClasses.id, keep) : undefined));
}

@Resolver(() => CourseClass)
export class CourseClassResolver {
  @Query(() => CourseClass, { description: 'A course class by id or by code (give one).' })
  async courseClass(
    @Arg('id', () => ID, { nullable: true }) id: string | null | undefined,
    @Arg('code', () => String, { nullable: true }) code: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    const key = oneOf(id, code);
    if ('id' in key) return findOr404(ctx, courseClassById, key.id, 'CourseClass');
    const [row] = await ctx.db.select().from(courseClasses).where(which(ctx, key));
    if (!row) throw notFound('CourseClass');
    return row;
  }

  @Query(() => CourseClassConnection, { description: 'Course classes of the school, of one course, or of the courses of one school product.' })
  async courseClasses(@Args(() => CourseClassesArgs) args: CourseClassesArgs, @Ctx() ctx: Context) {
    let ofCourse: SQL | undefined;
    if (args.courseId !== undefined && args.courseId !== null) {
      const course = await findOr404(ctx, courseById, parseId(args.courseId, 'Course'), 'Course');
      ofCourse = eq(courseClasses.courseId, course.id);
    }
    let ofProduct: SQL | undefined;
    if (args.schoolProductId !== undefined && args.schoolProductId !== null) {
      const product = await findOr404(ctx, schoolProductById, parseId(args.schoolProductId, 'SchoolProduct'), 'SchoolProduct');
      const ranks = courseRanks(ctx.db, [product.id]);
      ofProduct = inArray(courseClasses.courseId, ctx.db.select({ id: ranks.id }).from(ranks));
    }
    return paginate(ctx, courseClasses, and(inSchool(ctx, courseClasses.schoolId), ofCourse, ofProduct), args);
  }

  @Mutation(() => CourseClassPayload, { description: 'Creates a class of a course; main: true makes it the main class of the course.' })
  createCourseClass(
    @Arg('courseId', () => ID) courseId: string,
    @Arg('input', () => CourseClassInput) input: CourseClassInput,
    @Ctx() ctx: Context,
  ) {
    const schoolId = writeSchool(ctx);
    const id = parseId(courseId, 'Course');
    return mutate(ctx, 'courseClass', async (tx) => {
      // The course's lock orders every change of its main class.
      const course = await lockOwned(tx, ctx, courses, id, 'Course');
      const values = checked(input);
      if (values.main) await unsetMain(tx, course.id);
      const [row] = await tx.insert(courseClasses).values({ ...values, schoolId, courseId: course.id }).returning();
      return row;
    });
  }

  @Mutation(() => CourseClassPayload, {
    description: 'Updates a course class named by id or by code (give one). main: true unsets the previous main class of the course.',
  })
  updateCourseClass(
    @Arg('id', () => ID, { nullable: true }) id: string | null | undefined,
    @Arg('code', () => String, { nullable: true }) code: string | null | undefined,
    @Arg('input', () => CourseClassInput) input: CourseClassInput,
    @Ctx() ctx: Context,
  ) {
    writeSchool(ctx);
    const key = oneOf(id, code);
    return mutate(ctx, 'courseClass', async (tx) => {
      const [found] = await tx.select({ id: courseClasses.id, courseId: courseClasses.courseId }).from(courseClasses).where(which(ctx, key));
      if (!found) throw notFound('CourseClass');
      // Course first, then class: the same lock order as create, so the two cannot deadlock.
      if (input.main === true) await lockOwned(tx, ctx, courses, found.courseId, 'Course');
      const current = await lockOwned(tx, ctx, courseClasses, found.id, 'CourseClass');
      const values = checked(input, current);
      if (values.main) await unsetMain(tx, current.courseId, current.id);
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(courseClasses).set(values).where(eq(courseClasses.id, current.id)).returning();
      return row;
    });
  }

  @Mutation(() => CourseClassPayload, { description: 'Deletes a course class named by id or by code (give one); its enrollments leave it.' })
  deleteCourseClass(
    @Arg('id', () => ID, { nullable: true }) id: string | null | undefined,
    @Arg('code', () => String, { nullable: true }) code: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    writeSchool(ctx);
    const key = oneOf(id, code);
    return mutate(ctx, 'courseClass', async (tx) => {
      const [row] = await tx.delete(courseClasses).where(which(ctx, key)).returning();
      if (!row) throw notFound('CourseClass');
      return row;
    });
  }
}
