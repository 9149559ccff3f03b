import 'reflect-metadata';
import { and, eq, sql } from 'drizzle-orm';
import { Args, ArgsType, Ctx, Field, ID, Mutation, Resolver } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { idOrNull, parseId } from '../../graphql/ids.js';
import { mutate } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { courses } from '../courses/course.table.js';
import { PathCourseInput } from './path.input.js';
import { PathPayload } from './path.type.js';
import { pathCourses, type PathRow, paths } from './path.table.js';
import { Path } from './path.type.js';

const ARGS_DOC =
  'The course is named by courseId, or by input.courseId (the REST body: {"path": {"course_id": 1}} or {"course_id": 1}); courseId wins when both are given.';

/** The course an add/remove names: a missing one is `course_id can't be blank` (422). */
function namedCourse(courseId: string | null | undefined, input: PathCourseInput | null | undefined, checks: Checks) {
  const raw = courseId ?? input?.courseId ?? null;
  checks.required('courseId', raw);
  return raw;
}

/** Marks the path changed (its list of courses is part of it). */
async function touch(tx: Queryable, pathId: number) {
  const [row] = await tx.update(paths).set({ updatedAt: new Date() }).where(eq(paths.id, pathId)).returning();
  return row;
}

/** The arguments of an add or a remove: the path, and the course by courseId or in the input (the REST body). */
@ArgsType()
class PathCourseArgs {
  @Field(() => ID) id!: string;
  @Field(() => ID, { nullable: true }) courseId?: string | null;
  @Field(() => PathCourseInput, { nullable: true }) input?: PathCourseInput | null;
}

/**
 * Changes the path's courses in one transaction, on the locked path (the lock orders concurrent adds to one
 * path, so positions stay distinct), given the named course (`raw`) with its checks still open.
 */
function changeCourses(
  args: PathCourseArgs,
  ctx: Context,
  change: (tx: Queryable, path: PathRow, checks: Checks, raw: string | null) => Promise<PathRow>,
) {
  const pathId = parseId(args.id, 'Path');
  return mutate(ctx, 'path', async (tx) => {
    const path = await lockOwned(tx, ctx, paths, pathId, 'Path');
    const checks = new Checks();
    return change(tx, path, checks, namedCourse(args.courseId, args.input, checks));
  });
}

@Resolver(() => Path)
export class PathCoursesResolver {
  @Mutation(() => PathPayload, {
    description: `Appends a course of the school to the end of the path. Adding a course the path already has changes nothing (idempotent) and still succeeds. ${ARGS_DOC}`,
  })
  addCourseToPath(@Args(() => PathCourseArgs) args: PathCourseArgs, @Ctx() ctx: Context) {
    return changeCourses(args, ctx, async (tx, path, checks, raw) => {
      const course = await existingId(tx, checks, 'courseId', courses, raw, path.schoolId);
      checks.throwIfAny();
      const next = sql`(select coalesce(max(${pathCourses.position}) + 1, 0) from ${pathCourses} where ${pathCourses.pathId} = ${path.id})`;
      const added = await tx
        .insert(pathCourses)
        .values({ schoolId: path.schoolId, pathId: path.id, courseId: course!, position: next })
        .onConflictDoNothing()
        .returning({ courseId: pathCourses.courseId });
      return added.length ? touch(tx, path.id) : path;
    });
  }

  @Mutation(() => PathPayload, {
    description: `Removes a course from the path (the others keep their order). A course the path does not have is a UserError (course_id: inclusion, 422). ${ARGS_DOC}`,
  })
  removeCourseFromPath(@Args(() => PathCourseArgs) args: PathCourseArgs, @Ctx() ctx: Context) {
    return changeCourses(args, ctx, async (tx, path, checks, raw) => {
      checks.throwIfAny();
      const course = idOrNull(raw);
      const removed = course
        ? await tx
            .delete(pathCourses)
            .where(and(eq(pathCourses.pathId, path.id), eq(pathCourses.courseId, course)))
            .returning({ courseId: pathCourses.courseId })
        : [];
      if (!removed.length) checks.add('courseId', 'inclusion', 'is not a course of this path').throwIfAny();
      return touch(tx, path.id);
    });
  }
}
