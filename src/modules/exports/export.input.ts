import 'reflect-metadata';
import { ArgsType, Field, ID, InputType } from 'type-graphql';

/**
 * The filters of an export: those of the matching list. enrollments and progress take the
 * enrollments list's (studentId, courseClassId, schoolProductId, status: an enrollment status);
 * orders the orders list's (studentId, status: an order status, createdFrom, createdTo).
 */
@InputType('ExportFiltersInput')
@ArgsType()
export class ExportFilters {
  @Field(() => ID, { nullable: true, description: "The student's rows." }) studentId?: string | null;
  @Field(() => ID, { nullable: true, description: 'enrollments, progress: the enrollments in this course class.' }) courseClassId?: string | null;
  @Field(() => ID, { nullable: true, description: 'enrollments, progress: the enrollments in this school product.' }) schoolProductId?: string | null;
  @Field(() => String, { nullable: true, description: "The list's status: an enrollment's (enrollments, progress), an order's (orders)." })
  status?: string | null;
  @Field(() => Date, { nullable: true, description: 'orders: created at or after this time.' }) createdFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'orders: created before this time.' }) createdTo?: Date | null;
}
