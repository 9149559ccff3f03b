import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
import { users } from '../users/user.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { enrollments } from '../enrollments/enrollment.table.js';

/** A channel messages are posted to: a school-wide one, an enrollment's, or a school product's. */
export const channels = pgTable(
  'channels',
  {
    id: id(),
    schoolId: schoolRef(),
    name: text(),
    enrollmentId: integer().references(() => enrollments.id, { onDelete: 'cascade' }),
    schoolProductId: integer().references(() => schoolProducts.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [
    index('channels_school_id_idx').on(t.schoolId, t.id),
    index('channels_enrollment_id_idx').on(t.enrollmentId),
    index('channels_school_product_id_idx').on(t.schoolProductId),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: id(),
    schoolId: schoolRef(),
    senderId: belongsTo(() => users.id),
    subject: text().notNull(),
    text: text().notNull(),
    ...timestamps,
  },
  (t) => [
    index('messages_school_id_idx').on(t.schoolId, t.id),
    index('messages_sender_id_idx').on(t.senderId),
  ],
);

export const messageChannels = pgTable(
  'message_channels',
  {
    messageId: belongsTo(() => messages.id),
    channelId: belongsTo(() => channels.id),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.channelId] }),
    index('message_channels_channel_id_idx').on(t.channelId, t.messageId),
  ],
);

/** The owners named when a message is posted (`owners[id]`, `owners[type]`); polymorphic, no foreign key. */
export const messageOwners = pgTable(
  'message_owners',
  {
    id: id(),
    messageId: belongsTo(() => messages.id),
    ownerId: integer().notNull(),
    ownerType: text().notNull(),
  },
  (t) => [
    index('message_owners_message_id_idx').on(t.messageId),
    index('message_owners_owner_type_owner_id_idx').on(t.ownerType, t.ownerId),
  ],
);

export type ChannelRow = typeof channels.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type MessageChannelRow = typeof messageChannels.$inferSelect;
export type MessageOwnerRow = typeof messageOwners.$inferSelect;
