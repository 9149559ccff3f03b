import 'reflect-metadata';
import { and, eq, sql } from 'drizzle-orm';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { uniqueConstraintField } from '../../graphql/mutation.js';
import { existingId } from '../../graphql/references.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { Category } from './category.type.js';
import { CategoryInput } from './library.input.js';
import { categoryById } from './library.loaders.js';
import { optionalText } from './library.rules.js';
import { categories, type CategoryRow } from './library.table.js';

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
  const checks = new Checks().present(!current, 'name', input.name);
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
export class CategoryResolver extends resourceResolver({
  type: Category,
  plural: 'categories',
  byId: categoryById,
  columns: (tx, input: CategoryInput, { schoolId, current }) => categoryColumns(tx, schoolId, input, current),
  descriptions: {
    list: "The school's categories.",
    update: 'Updates a category; parentId null makes it top-level.',
    delete: 'Deletes a category; its children become top-level.',
  },
}) {
  @FieldResolver(() => Category, { nullable: true })
  parent(@Root() category: CategoryRow, @Ctx() ctx: Context) {
    return category.parentId ? ctx.loaders.get(categoryById).load(category.parentId) : null;
  }
}
