import { and, eq, getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { inSchoolScope } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { subscribeTo } from '../../graphql/subscriptions.js';
import type { EventSignal, SharedReads } from '../events/event-bus.js';
import type { EventName } from '../events/events.js';

/**
 * A subscription to the rows an event creates (notification.created, and the messages' message.created),
 * each subject when its event commits. `wanted` skips a signal from what it says alone (no read).
 * The subject's row is read once per event on this instance, of the event's school, and shared by
 * every subscriber (SharedReads); each subscriber then keeps it only when it is of the school in its
 * scope and `visible` says its scope would select it over HTTP (in memory, or with reads shared the
 * same way). A row it may not see is skipped.
 */
export function createdRows<T extends PgTable & { id: PgColumn; schoolId: PgColumn }>(
  ctx: Context,
  name: EventName,
  table: T,
  rules: {
    wanted?: (signal: EventSignal) => boolean;
    visible: (ctx: Context, row: T['$inferSelect'], shared: SharedReads) => boolean | Promise<boolean>;
  },
) {
  type Row = T['$inferSelect'] & { schoolId: number };
  return subscribeTo<Row>(
    ctx,
    (s) => s.name === name && s.subjectId !== null && (rules.wanted?.(s) ?? true),
    async (c, s, shared) => {
      const row = await shared.once(`subject:${getTableName(table)}`, async () => {
        const [found] = await c.db
          .select()
          .from(table as PgTable)
          .where(and(eq(table.id, s.subjectId!), eq(table.schoolId, s.schoolId)));
        return (found as Row | undefined) ?? null;
      });
      if (!row || !inSchoolScope(c, row.schoolId)) return null;
      return (await rules.visible(c, row, shared)) ? row : null;
    },
  );
}
