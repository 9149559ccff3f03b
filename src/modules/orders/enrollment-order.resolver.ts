import 'reflect-metadata';
import { Resolver } from 'type-graphql';
import { RelationFields } from '../../graphql/relations.js';
import type { EnrollmentRow } from '../enrollments/enrollment.table.js';
import { Enrollment } from '../enrollments/enrollment.type.js';
import { orderById } from './order.loaders.js';
import { Order } from './order.type.js';

/** `Enrollment.order`: the paid order that made the enrollment (order.enroll.ts), through its loader. */
@Resolver(() => Enrollment)
@RelationFields<EnrollmentRow>({
  order: { type: () => Order, loader: orderById, key: 'orderId', nullable: true, description: 'The paid order that made it; null for an enrollment made by hand.' },
})
export class EnrollmentOrderResolver {}
