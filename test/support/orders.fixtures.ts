import { and, eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { couponTokens, coupons, gatewayCredentials, orders, paymentOptions } from '../../src/modules/orders/order.table.js';
import { schoolProducts } from '../../src/modules/school-products/school-product.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { countRows, unique } from './rows.js';
import type { Service } from './service.js';

/**
 * A hash of a request body as the tests build it: any value, since a test sends wrong ones on
 * purpose (a status out of the list, a kind that is not a number, a field deleted).
 */
export type Hash = { [key: string]: unknown };

/** What an import names: a student, two payment options, coupon tokens, a coupon and a gateway credential of the school. */
export interface ImportRefs {
  schoolId: number;
  student: { id: number };
  options: { id: number }[];
  tokens: { id: number }[];
  coupon: { id: number };
  gateway: { id: number };
}

/**
 * The orders family's fixtures, for its REST, import and GraphQL tests: rows whose APIs other
 * families build (users, products), or that a test wants as given, go straight into the tables.
 * `service` is read when a fixture runs.
 */
export function orderFixtures(service: () => Service) {
  const db = () => service().db;
  return {
    async person(schoolId: number, type: 'Student' | 'Collaborator' | 'Admin' = 'Student') {
      const [row] = await db()
        .insert(users)
        .values({ schoolId, type, fullName: `${type} person`, email: `${unique(type.toLowerCase())}@example.com` })
        .returning();
      return row;
    },
    countRows: (table: PgTable, where?: SQL) => countRows(service(), table, where),
    async orderRow(id: number) {
      const [row] = await db().select().from(orders).where(eq(orders.id, id));
      return row;
    },
    /** The names of the order's domain events, in order. */
    async eventsOf(orderId: number) {
      const rows = await db()
        .select()
        .from(domainEvents)
        .where(and(eq(domainEvents.subjectType, 'Order'), eq(domainEvents.subjectId, orderId)))
        .orderBy(domainEvents.id);
      return rows.map((r) => r.name);
    },
    /** The rows an import names, made in the school (`tokenCount` unused coupon tokens). */
    async importRefs(schoolId: number, tokenCount = 4): Promise<ImportRefs> {
      const [student] = await db()
        .insert(users)
        .values({ schoolId, type: 'Student', fullName: 'Importing Student', email: `${unique('student')}@example.com` })
        .returning();
      const [product] = await db().insert(schoolProducts).values({ schoolId, title: 'Course' }).returning();
      const options = await db()
        .insert(paymentOptions)
        .values([
          { schoolId, schoolProductId: product.id, name: 'Full', price: 10000, installmentsMax: 12 },
          { schoolId, schoolProductId: product.id, name: 'Half', price: 5000 },
        ])
        .returning();
      const [coupon] = await db().insert(coupons).values({ schoolId, code: unique('COUPON'), discountPercent: 10 }).returning();
      const tokens = await db()
        .insert(couponTokens)
        .values(Array.from({ length: tokenCount }, () => ({ schoolId, couponId: coupon.id, token: unique('T') })))
        .returning();
      const [gateway] = await db().insert(gatewayCredentials).values({ schoolId, gateway: 'pagarme' }).returning();
      return { schoolId, student, options, tokens, coupon, gateway };
    },
  };
}
