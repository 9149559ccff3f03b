import type { Queryable } from '../../db/client.js';
import { domainEvents } from '../events/domain-event.table.js';
import { type NotificationRow, notifications } from './notification.table.js';

/**
 * Creates notifications and their `notification.created` events: two statements however many.
 * Other modules' callbacks (a new message) notify through this too.
 */
export async function notify(
  tx: Queryable,
  schoolId: number,
  items: { userId: number; text: string | null; url: string | null }[],
): Promise<NotificationRow[]> {
  if (items.length === 0) return [];
  const rows = await tx
    .insert(notifications)
    .values(items.map((i) => ({ schoolId, userId: i.userId, text: i.text, url: i.url })))
    .returning();
  await tx.insert(domainEvents).values(
    rows.map((r) => ({
      schoolId,
      name: 'notification.created' as const,
      subjectType: 'Notification',
      subjectId: r.id,
      payload: { userId: r.userId, text: r.text, url: r.url },
    })),
  );
  return rows;
}
