import 'reflect-metadata';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import { replaceLinks } from '../../db/links.js';
import type { Context } from '../../graphql/context.js';
import { mutate, uniqueConstraintField } from '../../graphql/mutation.js';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { existingIds } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { productPathRanks } from '../../content/order.js';
import { pathCondition } from '../../content/scope.js';
import { contentScope } from '../content/content-scope.js';
import { withScopedShow } from '../content/content-show.js';
import { scopedList } from '../content/content-order.js';
import { scopeOf, withScope } from '../content/content-view.js';
import { courses } from '../courses/course.table.js';
import { Course } from '../courses/course.type.js';
import { CreatePathInput, PathsArgs, UpdatePathInput } from './path.input.js';
import { courseIdsOfPath, coursesOfPath, pathById } from './path.loaders.js';
import { pathCourses, paths, type PathRow } from './path.table.js';
import { Path, PathConnection, PathPayload } from './path.type.js';

uniqueConstraintField('paths_school_id_code_key', 'code');

/** A code is trimmed; a blank one means none (so blank codes never collide). */
const normalCode = (code: string | null | undefined) => (code === undefined ? undefined : code?.trim() || null);

const PathBase = resourceResolver({
  type: Path,
  input: UpdatePathInput,
  byId: pathById,
  payload: PathPayload,
  // Only updates go through here: a create also links the path's courses (createPath below).
  columns: (_tx, input: UpdatePathInput) => {
    new Checks().notCleared('name', input.name).notCleared('description', input.description).throwIfAny();
    const changes: Partial<PathRow> = {};
    if (input.name !== undefined) changes.name = input.name!.trim();
    if (input.description !== undefined) changes.description = input.description;
    return changes;
  },
  descriptions: {
    update: 'Changes the name and the description of a path (neither may be cleared).',
    delete: 'Deletes a path (its course links and its place in products go with it).',
  },
  omit: ['show', 'list', 'create'],
});

@Resolver(() => Path)
@RelationFields<PathRow>({
  courseIds: { type: () => [ID], loader: courseIdsOfPath, key: 'id', description: 'The course ids of the path, in its order.' },
})
export class PathResolver extends withScopedShow(PathBase, {
  description: 'A path; with schoolProductId or enrollmentId, only a path of that scope (404 otherwise).',
  // The scope travels with the path, so its courses' lessons keep the scope's release rules.
  inScope: pathCondition,
}) {
  @Query(() => PathConnection, {
    description: "Paths of the school (in id order), or of a school product or of an enrollment (its product's, when active), in the product's order.",
  })
  async paths(@Args(() => PathsArgs) args: PathsArgs, @Ctx() ctx: Context) {
    const scope = await contentScope(ctx, args);
    // A product's paths (or an enrollment's product's) come in the product's order.
    return scopedList(ctx, scope, paths, inSchool(ctx, paths.schoolId), args, (productId) => productPathRanks(ctx.db, productId));
  }

  @Mutation(() => PathPayload, { description: 'Creates a path; courseIds (courses of the school) give its courses in order.' })
  createPath(@Arg('input', () => CreatePathInput) input: CreatePathInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'path', async (tx) => {
      const checks = new Checks().required('name', input.name).required('description', input.description);
      const courseIds = await existingIds(tx, checks, 'courseIds', courses, input.courseIds, schoolId);
      checks.throwIfAny();
      const [row] = await tx
        .insert(paths)
        .values({ schoolId, name: input.name!.trim(), description: input.description!, imageUrl: input.imageUrl ?? null, code: normalCode(input.code) })
        .returning();
      const t = pathCourses;
      if (courseIds.length) await replaceLinks(tx, t, t.pathId, row, t.courseId, courseIds, t.position);
      return row;
    });
  }

  @FieldResolver(() => [Course], { description: "The path's courses, in its order (read in the path's scope: an enrollment's release rules hold below)." })
  async courses(@Root() path: PathRow, @Ctx() ctx: Context) {
    const scope = scopeOf(path);
    return (await ctx.loaders.get(coursesOfPath).load(path.id)).map((c) => withScope(c, scope));
  }
}
