import { index, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, timestamps } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';

/**
 * People of a school, one table with a type (Rails-style single-table inheritance): students,
 * collaborators (teachers, staff) and admins share one id space, which is what `user_id`,
 * `sender_id` and `author` references need. Emails are stored lower-cased and are unique within
 * one school only: the same person may run or attend several schools.
 */
export const userType = pgEnum('user_type', ['Student', 'Collaborator', 'Admin']);

export const users = pgTable(
  'users',
  {
    id: id(),
    schoolId: schoolRef(),
    type: userType().notNull(),
    fullName: text().notNull(),
    email: text().notNull(),
    passwordHash: text(),
    document: text(),
    phone: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_school_id_email_key').on(t.schoolId, t.email),
    index('users_email_type_idx').on(t.email, t.type),
    index('users_school_id_type_idx').on(t.schoolId, t.type),
  ],
);

export type UserRow = typeof users.$inferSelect;
