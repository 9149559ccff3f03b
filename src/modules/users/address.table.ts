import { text } from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.js';
import { orderedIndex } from '../../db/indexes.js';
import { schoolTable } from '../../db/tables.js';
import { users } from './user.table.js';

/** A person's postal addresses (Edools v1's `/students/:id/addresses`): deleted with the person's erasure. */
export const addresses = schoolTable(
  'addresses',
  {
    userId: belongsTo(() => users.id),
    street: text().notNull(),
    /** Text: "123", "s/n", "12-B". */
    number: text(),
    complement: text(),
    district: text(),
    city: text().notNull(),
    /** The state or province (RJ, SP). */
    state: text(),
    country: text(),
    zipCode: text().notNull(),
  },
  (t) => [orderedIndex(t.schoolId, t.id), orderedIndex(t.userId, t.id)],
);

export type AddressRow = typeof addresses.$inferSelect;
