import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgEnum, text } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { indexOn, orderedIndex, uniqueIndexOn } from '../../db/indexes.js';
import { schoolTable, shardedTable } from '../../db/tables.js';
import { schoolRef } from '../../db/school.table.js';
import { users } from '../users/user.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { courseClasses } from '../course-classes/course-class.table.js';
import { orders } from '../orders/order.table.js';

export const enrollmentMaxAttendanceType = pgEnum('enrollment_max_attendance_type', [
  'indeterminate',
  'time',
  'attempts',
]);
export const enrollmentStatus = pgEnum('enrollment_status', ['pending', 'active', 'expired', 'deactivated', 'canceled']);

/** A student's registration in a school; enrollments hang from it. */
export const registrations = schoolTable(
  'registrations',
  {
    studentId: belongsTo(() => users.id),
    status: text().notNull().default('active'),
  },
  (t) => [
    uniqueIndexOn(t.schoolId, t.studentId),
    indexOn(t.studentId),
  ],
);

export const enrollments = schoolTable(
  'enrollments',
  {
    registrationId: belongsTo(() => registrations.id),
    /** The registration's student, kept on the row for the student scope of the list. */
    studentId: belongsTo(() => users.id),
    schoolProductId: integer()
      .notNull()
      .references(() => schoolProducts.id, { onDelete: 'restrict' }),
    maxAttendanceType: enrollmentMaxAttendanceType().notNull(),
    maxAttendanceLength: integer(),
    status: enrollmentStatus().notNull().default('pending'),
    availableUntil: tstz(),
    activatedAt: tstz(),
    unlimited: boolean().notNull().default(false),
    code: text(),
    /** Seconds spent; written only with an app credential. */
    timeSpent: integer().notNull().default(0),
    /** The paid order that made this enrollment (orders/order.enroll.ts); a full refund cancels it. */
    orderId: integer().references(() => orders.id, { onDelete: 'set null' }),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.registrationId),
    orderedIndex(t.studentId, t.id),
    orderedIndex(t.schoolProductId, t.id),
    uniqueIndexOn(t.schoolId, t.code),
    // One enrollment per product of an order: confirming twice enrolls once.
    uniqueIndexOn(t.orderId, t.schoolProductId, t.schoolId),
    // Reports (modules/reports): a school's enrollments of a period.
    indexOn(t.schoolId, t.createdAt),
    check('enrollments_max_attendance_length_positive', sql`${t.maxAttendanceLength} > 0`),
    check('enrollments_time_spent_non_negative', sql`${t.timeSpent} >= 0`),
  ],
);

export const enrollmentCourseClasses = shardedTable(
  'enrollment_course_classes',
  {
    schoolId: schoolRef(),
    enrollmentId: belongsTo(() => enrollments.id),
    courseClassId: belongsTo(() => courseClasses.id),
  },
  (t) => [t.enrollmentId, t.courseClassId, t.schoolId],
  (t) => [orderedIndex(t.courseClassId, t.enrollmentId)],
);

export type RegistrationRow = typeof registrations.$inferSelect;
export type EnrollmentRow = typeof enrollments.$inferSelect;
