import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Context } from '../../graphql/context.js';
import { subscribeTo } from '../../graphql/subscriptions.js';
import type { EventName } from '../events/events.js';

/**
 * A subscription to the rows an event creates (notification.created, and the messages' message.created):
 * each subject when its event commits, read afresh with the subscriber's scope (`visible`); a row it
 * may not see is skipped.
 */
export function createdRows<T extends PgTable & { id: PgColumn }>(
  ctx: Context,
  name: EventName,
  table: T,
  visible: (ctx: Context) => SQL | undefined,
) {
  return subscribeTo<T['$inferSelect']>(
    ctx,
    (s) => s.name === name && s.subjectId !== null,
    async (c, s) => {
      const [row] = await c.db
        .select()
        .from(table as PgTable)
        .where(and(eq(table.id, s.subjectId!), visible(c)));
      return row as T['$inferSelect'] | undefined;
    },
  );
}
