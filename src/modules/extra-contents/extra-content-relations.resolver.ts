import 'reflect-metadata';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { ownStudentId } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { contentWithheld, scopeOf } from '../content/content-view.js';
import { Course, Lesson } from '../courses/course.type.js';
import { SchoolProduct } from '../school-products/school-product.type.js';
import { type ExtraContentResourceType, extraContentsOfResource } from './extra-content.loaders.js';
import { ExtraContent } from './extra-content.type.js';

const description =
  "Its extra contents, ordered by order then id. Read through an enrollment, or by a student, only the available ones.";

/**
 * The extra contents of a resource row as its reader sees them: everything for staff, only the
 * available ones when the row was read through an enrollment or the reader is a student (none when
 * the row was read in a scope that shows nothing). One loader batches every resource of a request.
 */
async function extraContentsOf(ctx: Context, resourceType: ExtraContentResourceType, row: { id: number }) {
  const scope = scopeOf(row);
  // A student's lesson locked in its enrollment shows none until it opens (content-view.ts' withLocks).
  if (scope?.kind === 'nothing' || contentWithheld(row)) return [];
  const rows = await ctx.loaders.get(extraContentsOfResource).load({ resourceType, resourceId: row.id });
  const availableOnly = scope?.kind === 'enrollment' || ownStudentId(ctx) !== null;
  return availableOnly ? rows.filter((r) => r.available) : rows;
}

@Resolver(() => Lesson)
export class LessonExtraContentsResolver {
  @FieldResolver(() => [ExtraContent], { description })
  extraContents(@Root() lesson: { id: number }, @Ctx() ctx: Context) {
    return extraContentsOf(ctx, 'Lesson', lesson);
  }
}

@Resolver(() => Course)
export class CourseExtraContentsResolver {
  @FieldResolver(() => [ExtraContent], { description })
  extraContents(@Root() course: { id: number }, @Ctx() ctx: Context) {
    return extraContentsOf(ctx, 'Course', course);
  }
}

@Resolver(() => SchoolProduct)
export class SchoolProductExtraContentsResolver {
  @FieldResolver(() => [ExtraContent], { description })
  extraContents(@Root() product: { id: number }, @Ctx() ctx: Context) {
    return extraContentsOf(ctx, 'SchoolProduct', product);
  }
}
