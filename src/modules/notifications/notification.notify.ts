import type { Queryable } from '../../db/client.js';
import { emitEvents } from '../events/events.js';
import { type NotificationRow, notifications } from './notification.table.js';

/**
 * Creates notifications and their `notification.created` events (which feed `notificationReceived`
 * and webhooks): two statements however many. The one writer of the notifications table: every
 * module's callbacks (a new message, a forum question or answer, a disabled integration) notify
 * through this, and test/notifications/notify.test.ts fails on an insert anywhere else in src/.
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
  await emitEvents(
    tx,
    rows.map((r) => ({
      schoolId,
      name: 'notification.created' as const,
      subjectType: 'Notification' as const,
      subjectId: r.id,
      payload: { userId: r.userId, text: r.text, url: r.url },
    })),
  );
  return rows;
}
