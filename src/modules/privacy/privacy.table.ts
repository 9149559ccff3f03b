import { integer } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { indexOn, uniqueIndexOn } from '../../db/indexes.js';
import { schoolRowTable } from '../../db/tables.js';
import { apiTokens } from '../../auth/api-token.table.js';
import { users } from '../users/user.table.js';

/**
 * That a person was erased (erasePerson): ids and a time, nothing personal. One row per person, so
 * an erasure happens once and a second request answers the first one's record.
 */
export const personalDataErasures = schoolRowTable(
  'personal_data_erasures',
  {
    userId: belongsTo(() => users.id),
    /** The credential that asked (null once it is deleted). */
    erasedByTokenId: integer().references(() => apiTokens.id, { onDelete: 'set null' }),
    erasedAt: tstz().notNull(),
  },
  (t) => [uniqueIndexOn(t.userId, t.schoolId), indexOn(t.schoolId), indexOn(t.erasedByTokenId)],
);

export type PersonalDataErasureRow = typeof personalDataErasures.$inferSelect;
