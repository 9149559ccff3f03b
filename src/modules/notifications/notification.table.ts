import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps, tstz } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
import { users } from '../users/user.table.js';

/** A notification for one user (a student or a collaborator). */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    schoolId: schoolRef(),
    userId: belongsTo(() => users.id),
    text: text(),
    url: text(),
    read: boolean().notNull().default(false),
    readAt: tstz(),
    ...timestamps,
  },
  (t) => [
    index('notifications_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('notifications_school_id_idx').on(t.schoolId),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
