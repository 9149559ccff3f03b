import 'reflect-metadata';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { type ContentScope, enrollmentScope, isActiveEnrollment } from './content-scope.js';
import type { EnrollmentRow } from '../enrollments/enrollment.table.js';
import { Enrollment } from '../enrollments/enrollment.type.js';
import { SchoolProduct } from '../school-products/school-product.type.js';
import type { EnrollmentScope } from './content-release.js';
import { visibleLessons, withScope } from './content-view.js';
import { coursesOfProduct, lessonsOfProduct } from '../courses/course.loaders.js';
import { Course, Lesson } from '../courses/course.type.js';

/** `SchoolProduct.courses`: what `/school_products/:id/courses` lists, as a field. */
@Resolver(() => SchoolProduct)
export class SchoolProductCoursesResolver {
  @FieldResolver(() => [Course], { description: "The product's courses: its own, then those of its paths, in the product's order." })
  async courses(@Root() product: { id: number }, @Ctx() ctx: Context) {
    const scope: ContentScope = { kind: 'product', productId: product.id };
    return (await ctx.loaders.get(coursesOfProduct).load(product.id)).map((c) => withScope(c, scope));
  }
}

/** The scope an enrollment's student reads in, or null when the enrollment is not active. */
function activeScope(ctx: Context, enrollment: EnrollmentRow): EnrollmentScope | null {
  const now = ctx.now();
  if (!isActiveEnrollment(enrollment, now)) return null;
  return enrollmentScope(enrollment, now);
}

/** `Enrollment.courses` and `Enrollment.lessons`: what `/enrollments/:id/courses|lessons` list, as fields. */
@Resolver(() => Enrollment)
export class EnrollmentContentResolver {
  @FieldResolver(() => [Course], {
    description: "The courses of the enrolled product, in the product's order; none unless the enrollment is active.",
  })
  async courses(@Root() enrollment: EnrollmentRow, @Ctx() ctx: Context) {
    const scope = activeScope(ctx, enrollment);
    if (!scope) return [];
    return (await ctx.loaders.get(coursesOfProduct).load(scope.productId)).map((c) => withScope(c, scope));
  }

  @FieldResolver(() => [Lesson], {
    description:
      "The released lessons of the enrolled product, in the product's order: available, release_at passed, release_after days passed since activation. None unless the enrollment is active.",
  })
  async lessons(@Root() enrollment: EnrollmentRow, @Ctx() ctx: Context) {
    const scope = activeScope(ctx, enrollment);
    if (!scope) return [];
    return visibleLessons(ctx, scope, await ctx.loaders.get(lessonsOfProduct).load(scope.productId));
  }
}
