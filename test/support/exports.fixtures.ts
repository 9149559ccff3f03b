import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { enrollments, registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { orders } from '../../src/modules/orders/order.table.js';
import { schoolProducts } from '../../src/modules/school-products/school-product.table.js';
import { users } from '../../src/modules/users/user.table.js';
import type { Reply, Service } from './service.js';

/**
 * The exports family's fixtures (test/exports/): rows written straight into the tables (the
 * exports read them; other families test how they are made), and the CSV read back with csv-parse.
 */
export function exportFixtures(service: () => Service) {
  const db = () => service().db;
  let serial = 0;
  return {
    async product(schoolId: number, title = `Product ${++serial}`) {
      const [row] = await db().insert(schoolProducts).values({ schoolId, title }).returning();
      return row;
    },
    async student(schoolId: number, fullName: string) {
      const [row] = await db()
        .insert(users)
        .values({ schoolId, type: 'Student', fullName, email: `student-${++serial}-${schoolId}@example.com` })
        .returning();
      return row;
    },
    async enroll(schoolId: number, studentId: number, schoolProductId: number, status: 'active' | 'pending' | 'canceled' = 'active') {
      const [registration] = await db()
        .insert(registrations)
        .values({ schoolId, studentId })
        .onConflictDoUpdate({ target: [registrations.schoolId, registrations.studentId], set: { status: 'active' } })
        .returning();
      const [row] = await db()
        .insert(enrollments)
        .values({ schoolId, registrationId: registration.id, studentId, schoolProductId, maxAttendanceType: 'indeterminate', status, unlimited: true })
        .returning();
      return row;
    },
    async order(schoolId: number, studentId: number, values: Partial<typeof orders.$inferInsert> = {}) {
      const [row] = await db()
        .insert(orders)
        .values({ schoolId, studentId, total: 1000, amountToPay: 900, ...values })
        .returning();
      return row;
    },
    /**
     * `count` students each enrolled once in the product, in three statements whatever the count
     * (generate_series): a school large enough to cross many batches.
     */
    async manyEnrollments(schoolId: number, schoolProductId: number, count: number) {
      const tag = `bulk${++serial}`;
      await db().execute(sql`
        insert into users (school_id, type, full_name, email)
        select ${schoolId}, 'Student', 'Bulk student ' || n, ${tag} || '-' || n || '@example.com' from generate_series(1, ${count}) n`);
      await db().execute(sql`
        insert into registrations (school_id, student_id)
        select ${schoolId}, id from users where school_id = ${schoolId} and email like ${tag + '-%'}`);
      await db().execute(sql`
        insert into enrollments (school_id, registration_id, student_id, school_product_id, max_attendance_type, status, unlimited)
        select r.school_id, r.id, r.student_id, ${schoolProductId}, 'indeterminate', 'active', true
        from registrations r join users u on u.id = r.student_id where u.school_id = ${schoolId} and u.email like ${tag + '-%'}`);
    },
  };
}

/** A CSV reply's records, by the header's names (the byte-order mark dropped), as csv-parse reads RFC 4180. */
export function csvRecords(reply: Pick<Reply, 'text'> | string): Record<string, string>[] {
  return parse(typeof reply === 'string' ? reply : reply.text, { columns: true, bom: true, relax_column_count: false }) as Record<string, string>[];
}
