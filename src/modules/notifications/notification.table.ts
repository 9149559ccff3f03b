import { boolean, text } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { indexOn } from '../../db/indexes.js';
import { schoolTable } from '../../db/tables.js';
import { users } from '../users/user.table.js';

/** A notification for one user (a student or a collaborator). */
export const notifications = schoolTable(
  'notifications',
  {
    userId: belongsTo(() => users.id),
    text: text(),
    url: text(),
    read: boolean().notNull().default(false),
    readAt: tstz(),
  },
  (t) => [
    indexOn(t.userId, t.createdAt),
    indexOn(t.schoolId),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
