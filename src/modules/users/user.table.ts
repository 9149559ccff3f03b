import { pgEnum, text } from 'drizzle-orm/pg-core';
import { indexOn, uniqueIndexOn } from '../../db/indexes.js';
import { schoolTable } from '../../db/tables.js';

/**
 * People of a school, one table with a type (Rails-style single-table inheritance): students,
 * collaborators (teachers, staff) and admins share one id space, which is what `user_id`,
 * `sender_id` and `author` references need. Emails are stored lower-cased and are unique within
 * one school only: the same person may run or attend several schools.
 */
export const userType = pgEnum('user_type', ['Student', 'Collaborator', 'Admin']);

export const users = schoolTable(
  'users',
  {
    type: userType().notNull(),
    fullName: text().notNull(),
    email: text().notNull(),
    passwordHash: text(),
    document: text(),
    phone: text(),
    /** The person's language for mails (pt-BR, en, es); null: the school's. */
    locale: text(),
  },
  (t) => [
    uniqueIndexOn(t.schoolId, t.email),
    indexOn(t.email, t.type),
    indexOn(t.schoolId, t.type),
  ],
);

export type UserRow = typeof users.$inferSelect;
