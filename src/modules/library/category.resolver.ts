import 'reflect-metadata';
import { and, eq, sql } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload, uniqueConstraintField } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { Category, CategoryConnection } from './category.type.js';
import { CategoryInput } from './library.input.js';
import { categoryById } from './library.loaders.js';
import { optionalText } from './library.rules.js';
import { categories, type CategoryRow } from './library.table.js';

export const CategoryPayload = Payload(Category, 'category');
uniqueConstraintField('categories_school_id_slug_key', 'slug');

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Whether `categoryId` is `parentId` or one of its ancestors: making it the parent would close a loop. */
async function isAncestorOrSelf(tx: Queryable, categoryId: number, parentId: number): Promise<boolean> {
  const rows = await tx
    .select({ id: categories.id })
    .from(categories)
    .where(
      and(
        eq(categories.id, categoryId),
        sql`${categoryId} in (with recursive up(id, parent_id) as (
          select id, parent_id from categories where id = ${parentId}
          union select c.id, c.parent_id from categories c join up on c.id = up.parent_id
        ) select id from up)`,
      ),
    );
  return rows.length > 0;
}

/** The columns a create or an update writes, checked as the category will be (`current` on update). */
async function categoryColumns(tx: Queryable, schoolId: number, input: CategoryInput, current?: CategoryRow) {
  const checks = new Checks();
  if (current) checks.notCleared('name', input.name);
  else checks.required('name', input.name);
  const slug = optionalText(input.slug);
  if (slug && !SLUG.test(slug)) checks.add('slug', 'invalid', 'may hold only lower-case letters, digits and single hyphens (web-design)');
  const parentId = await existingId(tx, checks, 'parentId', categories, input.parentId, schoolId);
  if (current && parentId !== null && (await isAncestorOrSelf(tx, current.id, parentId)))
    checks.add('parentId', 'invalid', parentId === current.id ? "can't be the category itself" : "can't be one of the category's descendants");
  checks.throwIfAny();
  const values: Partial<typeof categories.$inferInsert> = {};
  if (input.name != null) values.name = input.name.trim();
  if (slug !== undefined) values.slug = slug;
  if (input.parentId !== undefined) values.parentId = parentId;
  return values;
}

@Resolver(() => Category)
export class CategoryResolver {
  @Query(() => Category)
  category(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, categoryById, parseId(id, 'Category'), 'Category');
  }

  @Query(() => CategoryConnection, { description: "The school's categories." })
  categories(@Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return paginate(ctx, categories, inSchool(ctx, categories.schoolId), args);
  }

  @Mutation(() => CategoryPayload)
  createCategory(@Arg('input', () => CategoryInput) input: CategoryInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'category', async (tx) => {
      const values = await categoryColumns(tx, schoolId, input);
      const [row] = await tx.insert(categories).values({ ...values, name: values.name!, schoolId }).returning();
      return row;
    });
  }

  @Mutation(() => CategoryPayload, { description: 'Updates a category; parentId null makes it top-level.' })
  updateCategory(@Arg('id', () => ID) id: string, @Arg('input', () => CategoryInput) input: CategoryInput, @Ctx() ctx: Context) {
    const categoryId = parseId(id, 'Category');
    return mutate(ctx, 'category', async (tx) => {
      const current = await lockOwned(tx, ctx, categories, categoryId, 'Category');
      const changes = await categoryColumns(tx, current.schoolId, input, current);
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx.update(categories).set(changes).where(eq(categories.id, categoryId)).returning();
      return row;
    });
  }

  @Mutation(() => CategoryPayload, { description: 'Deletes a category; its children become top-level.' })
  deleteCategory(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const categoryId = parseId(id, 'Category');
    return mutate(ctx, 'category', (tx) => deleteOwned(tx, ctx, categories, categoryId, 'Category'));
  }

  @FieldResolver(() => Category, { nullable: true })
  parent(@Root() category: CategoryRow, @Ctx() ctx: Context) {
    return category.parentId ? ctx.loaders.get(categoryById).load(category.parentId) : null;
  }
}
