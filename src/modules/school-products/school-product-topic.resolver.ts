import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { given, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { SchoolProductTopicInput } from './school-product.input.js';
import { schoolProductById, topicById } from './school-product.loaders.js';
import { schoolProducts, schoolProductTopics } from './school-product.table.js';
import { SchoolProductTopic, SchoolProductTopicConnection } from './school-product.type.js';

export const SchoolProductTopicPayload = Payload(SchoolProductTopic, 'schoolProductTopic');

@Resolver(() => SchoolProductTopic)
export class SchoolProductTopicResolver {
  @Query(() => SchoolProductTopic)
  schoolProductTopic(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, topicById, parseId(id, 'SchoolProductTopic'), 'SchoolProductTopic');
  }

  @Query(() => SchoolProductTopicConnection, { description: 'The topics of a school product.' })
  async schoolProductTopics(
    @Arg('schoolProductId', () => ID) schoolProductId: string,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Ctx() ctx: Context,
  ) {
    const product = await findOr404(ctx, schoolProductById, parseId(schoolProductId, 'SchoolProduct'), 'SchoolProduct');
    return paginate(ctx, schoolProductTopics, eq(schoolProductTopics.schoolProductId, product.id), args);
  }

  @Mutation(() => SchoolProductTopicPayload, { description: 'Adds a topic to a school product (the argument names the product).' })
  async createSchoolProductTopic(
    @Arg('schoolProductId', () => ID) schoolProductId: string,
    @Arg('input', () => SchoolProductTopicInput) input: SchoolProductTopicInput,
    @Ctx() ctx: Context,
  ) {
    const schoolId = writeSchool(ctx);
    const product = await findOr404(ctx, schoolProductById, parseId(schoolProductId, 'SchoolProduct'), 'SchoolProduct');
    return mutate(ctx, 'schoolProductTopic', async (tx) => {
      new Checks().required('title', input.title).required('description', input.description).throwIfAny();
      const [row] = await tx
        .insert(schoolProductTopics)
        .values({ schoolId, schoolProductId: product.id, title: input.title!.trim(), description: input.description! })
        .returning();
      return row;
    });
  }

  @Mutation(() => SchoolProductTopicPayload, { description: 'Updates a topic; a schoolProductId moves it to another product of the school.' })
  updateSchoolProductTopic(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => SchoolProductTopicInput) input: SchoolProductTopicInput,
    @Ctx() ctx: Context,
  ) {
    const topicId = parseId(id, 'SchoolProductTopic');
    return mutate(ctx, 'schoolProductTopic', async (tx) => {
      const current = await lockOwned(tx, ctx, schoolProductTopics, topicId, 'SchoolProductTopic');
      const checks = new Checks().notCleared('title', input.title).notCleared('description', input.description).notCleared('schoolProductId', input.schoolProductId);
      const productId = await existingId(tx, checks, 'schoolProductId', schoolProducts, input.schoolProductId, current.schoolId);
      checks.throwIfAny();
      const changes = { ...(given(input, ['schoolProductId']) as { title?: string; description?: string }), ...(productId ? { schoolProductId: productId } : {}) };
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx.update(schoolProductTopics).set(changes).where(eq(schoolProductTopics.id, topicId)).returning();
      return row;
    });
  }

  @Mutation(() => SchoolProductTopicPayload)
  deleteSchoolProductTopic(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const topicId = parseId(id, 'SchoolProductTopic');
    return mutate(ctx, 'schoolProductTopic', (tx) => deleteOwned(tx, ctx, schoolProductTopics, topicId, 'SchoolProductTopic'));
  }
}
