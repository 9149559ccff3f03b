import 'reflect-metadata';
import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { SchoolProduct } from '../school-products/school-product.type.js';
import { StudentTypes } from '../users/user.type.js';
import { enrollmentsOfProduct, enrollmentsOfStudent } from './enrollment.loaders.js';
import { EnrollmentConnection } from './enrollment.type.js';

/** `Student.enrollments`: the student's enrollments (a student credential sees only its own). */
@Resolver(() => StudentTypes.Type)
export class StudentEnrollmentsResolver {
  @FieldResolver(() => EnrollmentConnection)
  enrollments(@Root() student: { id: number }, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return enrollmentsOfStudent(ctx, student.id, args);
  }
}

/** `SchoolProduct.enrollments`: the enrollments in the product (a student credential sees only its own). */
@Resolver(() => SchoolProduct)
export class SchoolProductEnrollmentsResolver {
  @FieldResolver(() => EnrollmentConnection)
  enrollments(@Root() product: { id: number }, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return enrollmentsOfProduct(ctx, product.id, args);
  }
}
