import 'reflect-metadata';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { type ContentScope, enrollmentScope, isActiveEnrollment } from '../content/content-scope.js';
import { withScope } from '../content/content-view.js';
import type { EnrollmentRow } from '../enrollments/enrollment.table.js';
import { Enrollment } from '../enrollments/enrollment.type.js';
import { SchoolProduct } from '../school-products/school-product.type.js';
import { pathsOfProduct } from './path.loaders.js';
import { Path } from './path.type.js';

/**
 * `SchoolProduct.paths` and `Enrollment.paths`: what `/school_products/:id/paths` and
 * `/enrollments/:id/paths` list, as fields. Each path carries its scope, so the lessons of its courses
 * keep the scope's rules (an enrollment sees released lessons only).
 */
@Resolver(() => SchoolProduct)
export class SchoolProductPathsResolver {
  @FieldResolver(() => [Path], { description: "The product's learning paths, in the product's order." })
  async paths(@Root() product: { id: number }, @Ctx() ctx: Context) {
    const scope: ContentScope = { kind: 'product', productId: product.id };
    return (await ctx.loaders.get(pathsOfProduct).load(product.id)).map((p) => withScope(p, scope));
  }
}

@Resolver(() => Enrollment)
export class EnrollmentPathsResolver {
  @FieldResolver(() => [Path], { description: "The paths of the enrolled product, in the product's order; none unless the enrollment is active." })
  async paths(@Root() enrollment: EnrollmentRow, @Ctx() ctx: Context) {
    const now = ctx.now();
    if (!isActiveEnrollment(enrollment, now)) return [];
    const scope = enrollmentScope(enrollment, now);
    return (await ctx.loaders.get(pathsOfProduct).load(enrollment.schoolProductId)).map((p) => withScope(p, scope));
  }
}
