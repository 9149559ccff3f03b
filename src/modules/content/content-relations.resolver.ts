import 'reflect-metadata';
import type { GraphQLResolveInfo } from 'graphql';
import { Ctx, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import { askedColumns } from '../../graphql/asked-columns.js';
import { narrowedTo } from '../../graphql/loaders.js';
import type { Context, LoaderDefinition } from '../../graphql/context.js';
import { type ContentScope, enrollmentScope, isActiveEnrollment } from '../../content/scope.js';
import type { EnrollmentRow } from '../enrollments/enrollment.table.js';
import { Enrollment } from '../enrollments/enrollment.type.js';
import { SchoolProduct } from '../school-products/school-product.type.js';
import type { EnrollmentScope } from '../../content/release.js';
import { visibleLessons, withScope } from './content-view.js';
import { coursesOfProduct, lessonsOfProduct } from '../courses/course.loaders.js';
import { Course, Lesson } from '../courses/course.type.js';
import { courses as courseTable } from '../courses/course.table.js';
import { pathsOfProduct } from '../paths/path.loaders.js';
import { Path } from '../paths/path.type.js';

/**
 * A product's rows of one kind (`loader`: its courses, its paths), each carrying `scope`, so the lessons
 * under them keep the scope's rules (an enrollment sees released lessons only).
 */
async function productContent<V extends object>(ctx: Context, loader: LoaderDefinition<number, V[]>, scope: ContentScope & { productId: number }) {
  return (await ctx.loaders.get(loader).load(scope.productId)).map((row) => withScope(row, scope));
}

/**
 * The columns the computed fields of a course read, that a product's courses read only the asked
 * columns with (askedColumns): each of these loads by the course's id (and the scope it carries).
 */
const courseNeeds = { modules: ['id'], paths: ['id'], courseModulesIds: ['id'] } as const;

/** `SchoolProduct.courses` and `SchoolProduct.paths`: what `/school_products/:id/courses|paths` list, as fields. */
@Resolver(() => SchoolProduct)
export class SchoolProductContentResolver {
  @FieldResolver(() => [Course], { description: "The product's courses: its own, then those of its paths, in the product's order." })
  courses(@Root() product: { id: number }, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    // Only the columns asked for (plain fields, the id for the relations), with the id and school.
    const columns = askedColumns(info, courseTable, [], courseNeeds);
    return productContent(ctx, narrowedTo(coursesOfProduct, columns), { kind: 'product', productId: product.id });
  }

  @FieldResolver(() => [Path], { description: "The product's learning paths, in the product's order." })
  paths(@Root() product: { id: number }, @Ctx() ctx: Context) {
    return productContent(ctx, pathsOfProduct, { kind: 'product', productId: product.id });
  }
}

/** The scope an enrollment's student reads in, or null when the enrollment is not active. */
function activeScope(ctx: Context, enrollment: EnrollmentRow): EnrollmentScope | null {
  const now = ctx.now();
  if (!isActiveEnrollment(enrollment, now)) return null;
  return enrollmentScope(enrollment, now);
}

/** `Enrollment.courses`, `Enrollment.paths` and `Enrollment.lessons`: what `/enrollments/:id/courses|paths|lessons` list, as fields. */
@Resolver(() => Enrollment)
export class EnrollmentContentResolver {
  @FieldResolver(() => [Course], {
    description: "The courses of the enrolled product, in the product's order; none unless the enrollment is active.",
  })
  async courses(@Root() enrollment: EnrollmentRow, @Ctx() ctx: Context) {
    const scope = activeScope(ctx, enrollment);
    return scope ? productContent(ctx, coursesOfProduct, scope) : [];
  }

  @FieldResolver(() => [Path], { description: "The paths of the enrolled product, in the product's order; none unless the enrollment is active." })
  async paths(@Root() enrollment: EnrollmentRow, @Ctx() ctx: Context) {
    const scope = activeScope(ctx, enrollment);
    return scope ? productContent(ctx, pathsOfProduct, scope) : [];
  }

  @FieldResolver(() => [Lesson], {
    description:
      "The available lessons of the enrolled product, in the product's order; one not released yet (release_at or release_after days since activation to come) is locked, with releasedAt, and shows a student no content. None unless the enrollment is active.",
  })
  async lessons(@Root() enrollment: EnrollmentRow, @Ctx() ctx: Context) {
    const scope = activeScope(ctx, enrollment);
    if (!scope) return [];
    return visibleLessons(ctx, scope, await ctx.loaders.get(lessonsOfProduct).load(scope.productId));
  }
}
