import 'reflect-metadata';
import { eq } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import { schoolById } from '../schools/school.loaders.js';
import { School } from '../schools/school.type.js';
import { ForumInput } from './forum.input.js';
import { forumById, rootSectionsOfForum, sectionsOfForum } from './forum.loaders.js';
import { forums, type ForumRow } from './forum.table.js';
import { Forum, ForumConnection, ForumSection } from './forum.type.js';

export const ForumPayload = Payload(Forum, 'forum');

@Resolver(() => Forum)
export class ForumResolver {
  @Query(() => Forum)
  forum(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, forumById, parseId(id, 'Forum'), 'Forum');
  }

  @Query(() => ForumConnection, { description: 'The forums of the school.' })
  forums(@Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return paginate(ctx, forums, inSchool(ctx, forums.schoolId), args);
  }

  @Mutation(() => ForumPayload)
  createForum(@Arg('input', () => ForumInput) input: ForumInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'forum', async (tx) => {
      new Checks().required('title', input.title).throwIfAny();
      const [row] = await tx.insert(forums).values({ schoolId, title: input.title!.trim() }).returning();
      return row;
    });
  }

  @Mutation(() => ForumPayload)
  updateForum(@Arg('id', () => ID) id: string, @Arg('input', () => ForumInput) input: ForumInput, @Ctx() ctx: Context) {
    const forumId = parseId(id, 'Forum');
    return mutate(ctx, 'forum', async (tx) => {
      const current = await lockOwned(tx, ctx, forums, forumId, 'Forum');
      new Checks().notCleared('title', input.title).throwIfAny();
      if (input.title === undefined) return current;
      const [row] = await tx.update(forums).set({ title: input.title!.trim() }).where(eq(forums.id, forumId)).returning();
      return row;
    });
  }

  @Mutation(() => ForumPayload, { description: 'Deletes the forum with its sections, questions and answers.' })
  deleteForum(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const forumId = parseId(id, 'Forum');
    return mutate(ctx, 'forum', (tx) => deleteOwned(tx, ctx, forums, forumId, 'Forum'));
  }

  @FieldResolver(() => School)
  school(@Root() forum: ForumRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(schoolById).load(forum.schoolId);
  }

  @FieldResolver(() => [ForumSection], { description: 'Every section of the forum, nested ones included, in sequence order.' })
  sections(@Root() forum: ForumRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(sectionsOfForum).load(forum.id);
  }

  @FieldResolver(() => [ForumSection], { description: 'The top-level sections, in sequence order (their children field walks the tree).' })
  rootSections(@Root() forum: ForumRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(rootSectionsOfForum).load(forum.id);
  }
}
