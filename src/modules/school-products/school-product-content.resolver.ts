import 'reflect-metadata';
import { eq } from 'drizzle-orm';
import { Arg, Ctx, ID, Int, Mutation, Resolver } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import { orderedLinks, placedAt, replaceLinks } from '../../db/links.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { mutate } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { courses } from '../courses/course.table.js';
import { paths } from '../paths/path.table.js';
import { schoolProductCourses, schoolProductPaths } from './school-product-content.table.js';
import { SchoolProductPayload } from './school-product.type.js';
import { schoolProducts } from './school-product.table.js';
import { SchoolProduct } from './school-product.type.js';

/** The two kinds of content a product is composed of: its link table and what a link names. */
const kinds = {
  course: { links: schoolProductCourses, child: schoolProductCourses.courseId, table: courses, field: 'courseId' },
  path: { links: schoolProductPaths, child: schoolProductPaths.pathId, table: paths, field: 'pathId' },
} as const;
type Kind = keyof typeof kinds;

type Change = 'add' | 'remove' | 'move';

/**
 * Changes one link of a product's composition. The product's row lock orders concurrent changes,
 * and the whole list is rewritten from the new order, so positions stay dense (0..n-1).
 */
function changeLink(ctx: Context, kind: Kind, change: Change, id: string, childId: string | null | undefined, position?: number | null) {
  const { links, child, table, field } = kinds[kind];
  const productId = parseId(id, 'SchoolProduct');
  return mutate(ctx, 'schoolProduct', async (tx) => {
    const product = await lockOwned(tx, ctx, schoolProducts, productId, 'SchoolProduct');
    // Checked after the product is found, so another school's product is a 404 whatever the body.
    const checks = new Checks().required(field, childId).range('position', position, 0);
    if (change === 'move') checks.required('position', position);
    const named = await existingId(tx, checks, field, table, childId, product.schoolId);
    checks.throwIfAny();
    const current = await orderedLinks(tx, links, links.schoolProductId, productId, child, links.position);
    const has = current.includes(named!);
    // Adding what the product has already changes nothing (idempotent), whatever the position.
    if (change === 'add' && has) return product;
    if (change !== 'add' && !has) checks.add(field, 'inclusion', `is not a ${kind} of this product`).throwIfAny();
    const next = change === 'remove' ? current.filter((c) => c !== named) : placedAt(current, named!, position);
    if (next.join() === current.join()) return product;
    await replaceLinks(tx, links, links.schoolProductId, product, child, next, links.position);
    return touch(tx, productId);
  });
}

/** Marks the product changed (its composition is part of it). */
async function touch(tx: Queryable, productId: number) {
  const [row] = await tx.update(schoolProducts).set({ updatedAt: new Date() }).where(eq(schoolProducts.id, productId)).returning();
  return row;
}

/**
 * A required argument declared nullable, as addCourseToPath's: a missing one is a UserError (REST:
 * 422 `blank`) judged after the product is found, not a 400 that would answer before the 404.
 */
const Required = (name: string, type: typeof ID | typeof Int) => Arg(name, () => type, { nullable: true, description: 'Required.' });

const POSITION = 'position: 0-based place in the list; absent or past the end: last.';

/**
 * Add, remove and reorder one course or learning path (`noun`, with `addNote` on what adding it
 * brings) of a school product (`courseIds`/`pathIds` replace the whole list).
 */
function compositionResolver(kind: Kind, noun: string, addNote = '') {
  const { field } = kinds[kind];
  const Kind = kind === 'course' ? 'Course' : 'Path';

  @Resolver(() => SchoolProduct)
  class CompositionResolver {
    @Mutation(() => SchoolProductPayload, {
      name: `add${Kind}ToSchoolProduct`,
      description: `Puts ${noun} of the school into the product at position (${POSITION})${addNote}. Adding a ${kind} the product has already changes nothing.`,
    })
    add(
      @Arg('id', () => ID) id: string,
      @Required(field, ID) childId: string | null,
      @Arg('position', () => Int, { nullable: true }) position: number | null | undefined,
      @Ctx() ctx: Context,
    ) {
      return changeLink(ctx, kind, 'add', id, childId, position);
    }

    @Mutation(() => SchoolProductPayload, {
      name: `remove${Kind}FromSchoolProduct`,
      description: `Takes ${noun} out of the product (the others keep their order). A ${kind} it does not have: ${field} inclusion.`,
    })
    remove(@Arg('id', () => ID) id: string, @Required(field, ID) childId: string | null, @Ctx() ctx: Context) {
      return changeLink(ctx, kind, 'remove', id, childId);
    }

    @Mutation(() => SchoolProductPayload, { name: `move${Kind}InSchoolProduct`, description: `Moves ${noun} of the product to position (${POSITION}).` })
    move(@Arg('id', () => ID) id: string, @Required(field, ID) childId: string | null, @Required('position', Int) position: number | null, @Ctx() ctx: Context) {
      return changeLink(ctx, kind, 'move', id, childId, position);
    }
  }
  return CompositionResolver;
}

export const ProductCourseCompositionResolver = compositionResolver('course', 'a course');
export const ProductPathCompositionResolver = compositionResolver('path', 'a learning path', '; its courses become content of the product');
