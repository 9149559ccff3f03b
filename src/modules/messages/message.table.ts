import { integer, text } from 'drizzle-orm/pg-core';
import { belongsTo, rowId } from '../../db/columns.js';
import { schoolRef } from '../../db/school.table.js';
import { indexOn, orderedIndex } from '../../db/indexes.js';
import { schoolTable, shardedTable } from '../../db/tables.js';
import { users } from '../users/user.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { enrollments } from '../enrollments/enrollment.table.js';

/** A channel messages are posted to: a school-wide one, an enrollment's, or a school product's. */
export const channels = schoolTable(
  'channels',
  {
    name: text(),
    enrollmentId: integer().references(() => enrollments.id, { onDelete: 'cascade' }),
    schoolProductId: integer().references(() => schoolProducts.id, { onDelete: 'cascade' }),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.enrollmentId),
    indexOn(t.schoolProductId),
  ],
);

export const messages = schoolTable(
  'messages',
  {
    senderId: belongsTo(() => users.id),
    subject: text().notNull(),
    text: text().notNull(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.senderId),
  ],
);

export const messageChannels = shardedTable(
  'message_channels',
  {
    schoolId: schoolRef(),
    messageId: belongsTo(() => messages.id),
    channelId: belongsTo(() => channels.id),
  },
  (t) => [t.messageId, t.channelId, t.schoolId],
  (t) => [orderedIndex(t.channelId, t.messageId)],
);

/** The owners named when a message is posted (`owners[id]`, `owners[type]`); polymorphic, no foreign key. */
export const messageOwners = shardedTable(
  'message_owners',
  {
    id: rowId(),
    schoolId: schoolRef(),
    messageId: belongsTo(() => messages.id),
    ownerId: integer().notNull(),
    ownerType: text().notNull(),
  },
  (t) => [t.id, t.schoolId],
  (t) => [
    indexOn(t.messageId),
    indexOn(t.ownerType, t.ownerId),
  ],
);

export type ChannelRow = typeof channels.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type MessageOwnerRow = typeof messageOwners.$inferSelect;
