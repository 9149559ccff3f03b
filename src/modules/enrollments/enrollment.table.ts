import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgEnum, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps, tstz } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
import { users } from '../users/user.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { courseClasses } from '../course-classes/course-class.table.js';

export const enrollmentMaxAttendanceType = pgEnum('enrollment_max_attendance_type', [
  'indeterminate',
  'time',
  'attempts',
]);
export const enrollmentStatus = pgEnum('enrollment_status', ['pending', 'active', 'expired', 'deactivated', 'canceled']);

/** A student's registration in a school; enrollments hang from it. */
export const registrations = pgTable(
  'registrations',
  {
    id: id(),
    schoolId: schoolRef(),
    studentId: belongsTo(() => users.id),
    status: text().notNull().default('active'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('registrations_school_id_student_id_key').on(t.schoolId, t.studentId),
    index('registrations_student_id_idx').on(t.studentId),
  ],
);

export const enrollments = pgTable(
  'enrollments',
  {
    id: id(),
    schoolId: schoolRef(),
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
    ...timestamps,
  },
  (t) => [
    index('enrollments_school_id_idx').on(t.schoolId, t.id),
    index('enrollments_registration_id_idx').on(t.registrationId),
    index('enrollments_student_id_idx').on(t.studentId, t.id),
    index('enrollments_school_product_id_idx').on(t.schoolProductId, t.id),
    uniqueIndex('enrollments_school_id_code_key').on(t.schoolId, t.code),
    check('enrollments_max_attendance_length_positive', sql`${t.maxAttendanceLength} > 0`),
    check('enrollments_time_spent_non_negative', sql`${t.timeSpent} >= 0`),
  ],
);

export const enrollmentCourseClasses = pgTable(
  'enrollment_course_classes',
  {
    enrollmentId: belongsTo(() => enrollments.id),
    courseClassId: belongsTo(() => courseClasses.id),
  },
  (t) => [
    primaryKey({ columns: [t.enrollmentId, t.courseClassId] }),
    index('enrollment_course_classes_course_class_id_idx').on(t.courseClassId, t.enrollmentId),
  ],
);

export type RegistrationRow = typeof registrations.$inferSelect;
export type EnrollmentRow = typeof enrollments.$inferSelect;
export type EnrollmentCourseClassRow = typeof enrollmentCourseClasses.$inferSelect;
