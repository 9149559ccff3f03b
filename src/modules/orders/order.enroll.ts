import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { enrollments, registrations, type EnrollmentRow } from '../enrollments/enrollment.table.js';
import { emitEvents, type DomainEvent } from '../events/events.js';
import { productAccess } from '../school-products/school-product.access.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { orderItems, paymentOptions, type OrderRow } from './order.table.js';

/**
 * What a paid order gives and a refund takes back, in the transaction that moves the order.
 *
 * Enrolling (the order became confirmed): the student's registration in the school is made if
 * missing, then one enrollment per school product of the order's items (through their payment
 * options), `active` from now, with the product's access period (school-products/
 * school-product.access.ts: `available_until` from its duration or date, else unlimited) and the
 * order's id (an enrollment the student holds in that product by hand is taken over instead). Idempotent: the unique index (order_id, school_product_id) makes a second
 * confirmation, or a second import of the same order, insert nothing (and emit nothing).
 *
 * `emit: false` (an import given created_at: history) writes the same rows without events.
 */
export async function enrollOrder(tx: Queryable, order: OrderRow, now: Date, emit = true): Promise<EnrollmentRow[]> {
  const products = await tx
    .selectDistinct({
      id: schoolProducts.id,
      availableTimeType: schoolProducts.availableTimeType,
      availableTimeLength: schoolProducts.availableTimeLength,
      availableTimeUnit: schoolProducts.availableTimeUnit,
      expireDate: schoolProducts.expireDate,
      maxAttendanceType: schoolProducts.maxAttendanceType,
      maxAttendanceLength: schoolProducts.maxAttendanceLength,
    })
    .from(orderItems)
    .innerJoin(paymentOptions, eq(paymentOptions.id, orderItems.paymentOptionId))
    .innerJoin(schoolProducts, eq(schoolProducts.id, paymentOptions.schoolProductId))
    .where(eq(orderItems.orderId, order.id))
    .orderBy(schoolProducts.id);
  if (products.length === 0) return [];

  // The registration, made if missing: one statement (a no-op update returns the existing row).
  const [registration] = await tx
    .insert(registrations)
    .values({ schoolId: order.schoolId, studentId: order.studentId })
    .onConflictDoUpdate({ target: [registrations.schoolId, registrations.studentId], set: { studentId: order.studentId } })
    .returning({ id: registrations.id });

  // An enrollment the student already holds in a product by hand (no order, not canceled) becomes
  // this order's, as it stands: a sale of what they have makes no second copy. One per product.
  const adopted = await tx
    .update(enrollments)
    .set({ orderId: order.id, updatedAt: sql`now()` })
    .where(
      sql`${enrollments.id} in (select distinct on (${enrollments.schoolProductId}) ${enrollments.id} from ${enrollments}
        where ${enrollments.schoolId} = ${order.schoolId} and ${enrollments.studentId} = ${order.studentId} and ${enrollments.orderId} is null
          and ${enrollments.status} <> 'canceled' and ${inArray(enrollments.schoolProductId, products.map((p) => p.id))}
        order by ${enrollments.schoolProductId}, ${enrollments.id} desc)`,
    )
    .returning({ schoolProductId: enrollments.schoolProductId });
  const held = new Set(adopted.map((a) => a.schoolProductId));
  const missing = products.filter((p) => !held.has(p.id));
  if (missing.length === 0) return [];

  const created = await tx
    .insert(enrollments)
    .values(
      missing.map((p) => ({
        schoolId: order.schoolId,
        registrationId: registration.id,
        studentId: order.studentId,
        schoolProductId: p.id,
        orderId: order.id,
        status: 'active' as const,
        activatedAt: now,
        ...productAccess(p, now),
      })),
    )
    .onConflictDoNothing({ target: [enrollments.orderId, enrollments.schoolProductId, enrollments.schoolId] })
    .returning();
  if (emit)
    await emitEvents(
      tx,
      created
        .sort((a, b) => a.id - b.id)
        .flatMap((row) => (['enrollment.created', 'enrollment.activated'] as const).map((name) => enrollmentEvent(name, row))),
    );
  return created;
}

/** Cancels the enrollments `order` made (a full refund or chargeback), with `enrollment.canceled` each. */
export async function cancelOrderEnrollments(tx: Queryable, order: OrderRow): Promise<EnrollmentRow[]> {
  const canceled = await tx
    .update(enrollments)
    .set({ status: 'canceled', updatedAt: sql`now()` })
    .where(and(eq(enrollments.orderId, order.id), ne(enrollments.status, 'canceled')))
    .returning();
  await emitEvents(
    tx,
    canceled.sort((a, b) => a.id - b.id).map((row) => enrollmentEvent('enrollment.canceled', row)),
  );
  return canceled;
}

function enrollmentEvent(name: 'enrollment.created' | 'enrollment.activated' | 'enrollment.canceled', row: EnrollmentRow): DomainEvent {
  return {
    schoolId: row.schoolId,
    name,
    subjectType: 'Enrollment',
    subjectId: row.id,
    payload: { studentId: row.studentId, registrationId: row.registrationId, schoolProductId: row.schoolProductId, status: row.status },
  } as DomainEvent;
}
