import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { idOrNull, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { paginate } from '../../graphql/pagination.js';
import { mediaById } from '../media/media.loaders.js';
import { Media } from '../media/media.type.js';
import { ExtraContentInput, ExtraContentsArgs } from './extra-content.input.js';
import { extraContentById } from './extra-content.loaders.js';
import { checkExtraContent, resourceTypeOf } from './extra-content.rules.js';
import { type ExtraContentRow, extraContents } from './extra-content.table.js';
import { ExtraContent, ExtraContentConnection } from './extra-content.type.js';

export const ExtraContentPayload = Payload(ExtraContent, 'extraContent');

/** An id filter: an id that names no record matches nothing (0 is never an id). */
const idFilter = (value: string) => idOrNull(value) ?? 0;

@Resolver(() => ExtraContent)
export class ExtraContentResolver {
  @Query(() => ExtraContent)
  extraContent(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, extraContentById, parseId(id, 'ExtraContent'), 'ExtraContent');
  }

  @Query(() => ExtraContentConnection, {
    description:
      "The school's extra contents (id order), narrowed by resource (type in any spelling, id) and media. Students read them through Lesson/Course/SchoolProduct.extraContents.",
  })
  extraContents(@Args(() => ExtraContentsArgs) args: ExtraContentsArgs, @Ctx() ctx: Context) {
    const type = args.resourceType?.trim() ? resourceTypeOf(args.resourceType) : undefined;
    return paginate(
      ctx,
      extraContents,
      and(
        inSchool(ctx, extraContents.schoolId),
        // A type that names no resource type matches nothing.
        type === null ? eq(extraContents.id, 0) : type ? eq(extraContents.resourceType, type) : undefined,
        args.resourceId != null ? eq(extraContents.resourceId, idFilter(args.resourceId)) : undefined,
        args.mediaId != null ? eq(extraContents.mediaId, idFilter(args.mediaId)) : undefined,
      ),
      args,
    );
  }

  @Mutation(() => ExtraContentPayload)
  createExtraContent(@Arg('input', () => ExtraContentInput) input: ExtraContentInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'extraContent', async (tx) => {
      const values = await checkExtraContent(tx, schoolId, input);
      const [row] = await tx
        .insert(extraContents)
        .values({ ...values, resourceId: values.resourceId!, mediaId: values.mediaId!, order: values.order!, schoolId })
        .returning();
      return row;
    });
  }

  @Mutation(() => ExtraContentPayload)
  updateExtraContent(@Arg('id', () => ID) id: string, @Arg('input', () => ExtraContentInput) input: ExtraContentInput, @Ctx() ctx: Context) {
    const extraContentId = parseId(id, 'ExtraContent');
    return mutate(ctx, 'extraContent', async (tx) => {
      const current = await lockOwned(tx, ctx, extraContents, extraContentId, 'ExtraContent');
      const values = await checkExtraContent(tx, current.schoolId, input, current);
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(extraContents).set(values).where(eq(extraContents.id, extraContentId)).returning();
      return row;
    });
  }

  @Mutation(() => ExtraContentPayload)
  deleteExtraContent(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const extraContentId = parseId(id, 'ExtraContent');
    return mutate(ctx, 'extraContent', (tx) => deleteOwned(tx, ctx, extraContents, extraContentId, 'ExtraContent'));
  }

  @FieldResolver(() => Media)
  media(@Root() extraContent: ExtraContentRow, @Ctx() ctx: Context) {
    return findOr404(ctx, mediaById, extraContent.mediaId, 'Media');
  }
}
