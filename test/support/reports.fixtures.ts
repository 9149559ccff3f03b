import { eq } from 'drizzle-orm';
import { schools } from '../../src/db/school.table.js';
import { courseModuleLinks, courseModules, courses, lessons } from '../../src/modules/courses/course.table.js';
import { enrollments, registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { sessions } from '../../src/modules/identity/session.table.js';
import { invoices, orderItems, orders, paymentOptions, payments } from '../../src/modules/orders/order.table.js';
import { lessonProgress } from '../../src/modules/progress/progress.table.js';
import { schoolProductCourses } from '../../src/modules/school-products/school-product-content.table.js';
import { schoolProducts } from '../../src/modules/school-products/school-product.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { unique } from './rows.js';
import type { Service } from './service.js';

/**
 * The rows the reports' tests count by hand, written straight to the tables with the times the
 * figures hinge on (a payment at 01:00 UTC is the previous day in São Paulo).
 */
export class ReportRows {
  constructor(
    private readonly service: Service,
    readonly schoolId: number,
  ) {}

  private get db() {
    return this.service.db;
  }

  async timeZone(zone: string) {
    await this.db.update(schools).set({ timeZone: zone }).where(eq(schools.id, this.schoolId));
  }

  async student(type: 'Student' | 'Collaborator' | 'Admin' = 'Student') {
    const [row] = await this.db.insert(users).values({ schoolId: this.schoolId, type, fullName: unique('Person'), email: `${unique('p')}@example.com` }).returning();
    return row.id;
  }

  /** A product of one course of `lessonCount` lessons, sold by one payment option at `price`. */
  async product(lessonCount: number, price: number) {
    const schoolId = this.schoolId;
    const [product] = await this.db.insert(schoolProducts).values({ schoolId, title: unique('Product') }).returning();
    const [course] = await this.db.insert(courses).values({ schoolId, name: unique('Course') }).returning();
    const [module] = await this.db.insert(courseModules).values({ schoolId, name: unique('Module') }).returning();
    await this.db.insert(courseModuleLinks).values({ schoolId, courseId: course.id, courseModuleId: module.id });
    await this.db.insert(schoolProductCourses).values({ schoolId, schoolProductId: product.id, courseId: course.id });
    const lessonIds: number[] = [];
    for (let i = 0; i < lessonCount; i++) {
      const [lesson] = await this.db.insert(lessons).values({ schoolId, courseModuleId: module.id, position: i, title: unique('Lesson'), type: 'text' }).returning();
      lessonIds.push(lesson.id);
    }
    const [option] = await this.db.insert(paymentOptions).values({ schoolId, schoolProductId: product.id, name: 'Full', price }).returning();
    return { id: product.id, courseId: course.id, lessonIds, optionId: option.id, price };
  }

  /**
   * An order of `items` made at `at`; `confirmed` sets its confirmation; each payment is made at its
   * own time with its status and the cents given back of it.
   */
  async order(
    studentId: number,
    at: string,
    items: { optionId: number; price: number }[],
    options: { confirmed?: boolean; payments?: { at: string; amount: number; status: 'confirmed' | 'refunded' | 'failed'; refunded?: number }[] } = {},
  ) {
    const schoolId = this.schoolId;
    const total = items.reduce((s, i) => s + i.price, 0);
    const [order] = await this.db
      .insert(orders)
      .values({ schoolId, studentId, total, amountToPay: total, status: options.confirmed ? 'confirmed' : 'initiated', confirmedAt: options.confirmed ? new Date(at) : null, createdAt: new Date(at) })
      .returning();
    for (const item of items) await this.db.insert(orderItems).values({ schoolId, orderId: order.id, paymentOptionId: item.optionId, total: item.price, amountToPay: item.price });
    const [invoice] = await this.db.insert(invoices).values({ schoolId, orderId: order.id, amount: total, occurrence: 1, status: options.confirmed ? 'paid' : 'open' }).returning();
    for (const p of options.payments ?? [])
      await this.db.insert(payments).values({ schoolId, invoiceId: invoice.id, kind: 0, status: p.status, amount: p.amount, refundedAmount: p.refunded ?? 0, createdAt: new Date(p.at) });
    return order.id;
  }

  async enrollment(studentId: number, productId: number, at: string, status: 'pending' | 'active' | 'canceled', orderId: number | null = null) {
    const schoolId = this.schoolId;
    let [registration] = await this.db.select().from(registrations).where(eq(registrations.studentId, studentId));
    registration ??= (await this.db.insert(registrations).values({ schoolId, studentId }).returning())[0];
    const [row] = await this.db
      .insert(enrollments)
      .values({ schoolId, registrationId: registration.id, studentId, schoolProductId: productId, maxAttendanceType: 'indeterminate', status, orderId, createdAt: new Date(at) })
      .returning();
    return row.id;
  }

  /** A lesson's progress through an enrollment, last written at `at`. */
  async progress(enrollmentId: number, studentId: number, lessonId: number, at: string, completed: boolean) {
    await this.db.insert(lessonProgress).values({
      schoolId: this.schoolId,
      enrollmentId,
      studentId,
      lessonId,
      startedAt: new Date(at),
      completedAt: completed ? new Date(at) : null,
      createdAt: new Date(at),
      updatedAt: new Date(at),
    });
  }

  /** A sign-in of `userId` at `at`. */
  async signIn(userId: number, at: string) {
    await this.db.insert(sessions).values({ schoolId: this.schoolId, userId, method: 'password', createdAt: new Date(at), expiresAt: new Date(Date.parse(at) + 30 * 86_400_000) });
  }
}

/**
 * The hand-counted world of test/reports (school A in America/Sao_Paulo, the default; school B in
 * UTC), for the period 2026-03-01..2026-03-07. The figures each test expects are counted in its comments.
 */
export async function writeReportWorld(service: Service, schoolA: number, schoolB: number) {
  const a = new ReportRows(service, schoolA);
  const [s1, s2, s3, staff] = [await a.student(), await a.student(), await a.student(), await a.student('Collaborator')];
  const p1 = await a.product(2, 10000);
  const p2 = await a.product(1, 5000);
  const item1 = { optionId: p1.optionId, price: p1.price };
  const item2 = { optionId: p2.optionId, price: p2.price };

  // A1: 03-02 12:00 UTC (09:00 local), paid 10000.
  const a1 = await a.order(s1, '2026-03-02T12:00:00Z', [item1], { confirmed: true, payments: [{ at: '2026-03-02T12:00:00Z', amount: 10000, status: 'confirmed' }] });
  // A2: 03-03 01:00 UTC is 03-02 22:00 in São Paulo: two products, paid 15000, 3000 of it refunded.
  const a2 = await a.order(s2, '2026-03-03T01:00:00Z', [item1, item2], {
    confirmed: true,
    payments: [{ at: '2026-03-03T01:00:00Z', amount: 15000, status: 'confirmed', refunded: 3000 }],
  });
  // A3: 03-04, paid 5000 then refunded in full.
  const a3 = await a.order(s3, '2026-03-04T15:00:00Z', [item2], { confirmed: true, payments: [{ at: '2026-03-04T15:00:00Z', amount: 5000, status: 'refunded', refunded: 5000 }] });
  // A4: 03-05, its payment failed: not revenue, not paid.
  await a.order(s3, '2026-03-05T10:00:00Z', [item1], { payments: [{ at: '2026-03-05T10:00:00Z', amount: 10000, status: 'failed' }] });
  // A5: 03-01 01:00 UTC is 02-28 in São Paulo: before the period.
  await a.order(s1, '2026-03-01T01:00:00Z', [item2], { confirmed: true, payments: [{ at: '2026-03-01T01:00:00Z', amount: 5000, status: 'confirmed' }] });

  const e1 = await a.enrollment(s1, p1.id, '2026-03-02T12:00:00Z', 'active', a1);
  const e2 = await a.enrollment(s2, p1.id, '2026-03-03T01:00:00Z', 'active', a2);
  const e3 = await a.enrollment(s2, p2.id, '2026-03-03T01:00:00Z', 'active', a2);
  await a.enrollment(s3, p2.id, '2026-03-04T15:00:00Z', 'canceled', a3);
  await a.enrollment(s3, p1.id, '2026-03-06T12:00:00Z', 'pending');
  const e6 = await a.enrollment(s1, p2.id, '2026-02-20T12:00:00Z', 'active');

  // E1 completes P1; E2 half of it (its last write 03-05 02:00 UTC: 03-04 local); E3 completes P2; E6 (before the period) writes on 03-06.
  await a.progress(e1, s1, p1.lessonIds[0], '2026-03-03T12:00:00Z', true);
  await a.progress(e1, s1, p1.lessonIds[1], '2026-03-03T12:00:00Z', true);
  await a.progress(e2, s2, p1.lessonIds[0], '2026-03-05T02:00:00Z', true);
  await a.progress(e2, s2, p1.lessonIds[1], '2026-03-05T02:00:00Z', false);
  await a.progress(e3, s2, p2.lessonIds[0], '2026-03-05T02:00:00Z', true);
  await a.progress(e6, s1, p2.lessonIds[0], '2026-03-06T12:00:00Z', true);

  // Sign-ins: s1 on 03-03, s3 on 03-07, s2 at 03-08 01:00 UTC (03-07 local); staff's is not a student's.
  await a.signIn(s1, '2026-03-03T13:00:00Z');
  await a.signIn(s3, '2026-03-07T12:00:00Z');
  await a.signIn(s2, '2026-03-08T01:00:00Z');
  await a.signIn(staff, '2026-03-03T13:00:00Z');

  // School B, in UTC: a payment of 99900 at 03-03 01:00 UTC (03-03 there), its enrollment and sign-in.
  const b = new ReportRows(service, schoolB);
  await b.timeZone('UTC');
  const bStudent = await b.student();
  const bProduct = await b.product(1, 99900);
  const bOrder = await b.order(bStudent, '2026-03-03T01:00:00Z', [{ optionId: bProduct.optionId, price: 99900 }], {
    confirmed: true,
    payments: [{ at: '2026-03-03T01:00:00Z', amount: 99900, status: 'confirmed' }],
  });
  const bEnrollment = await b.enrollment(bStudent, bProduct.id, '2026-03-03T01:00:00Z', 'active', bOrder);
  await b.progress(bEnrollment, bStudent, bProduct.lessonIds[0], '2026-03-03T02:00:00Z', true);
  await b.signIn(bStudent, '2026-03-03T03:00:00Z');
  return { p1, p2, bProduct, students: { s1, s2, s3 }, staff };
}
