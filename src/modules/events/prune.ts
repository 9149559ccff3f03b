import { lt } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { domainEvents } from './domain-event.table.js';

export const DEFAULT_EVENT_RETENTION_DAYS = 30;
/** Webhook retries run for about 27 hours: an event must outlive them (and a day's slack). */
export const MIN_EVENT_RETENTION_DAYS = 2;

/**
 * Deletes the events older than the retention (by created_at); the pull feed and redelivery reach
 * back that far. Safe with several instances (a plain delete). Returns how many it deleted.
 */
export async function pruneEvents(db: Queryable, now: Date = new Date(), retentionDays = DEFAULT_EVENT_RETENTION_DAYS): Promise<number> {
  if (!Number.isFinite(retentionDays) || retentionDays < MIN_EVENT_RETENTION_DAYS)
    throw new Error(`EVENT_RETENTION_DAYS must be at least ${MIN_EVENT_RETENTION_DAYS} (webhook retries last about 27 hours); got ${retentionDays}`);
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  const deleted = await db.delete(domainEvents).where(lt(domainEvents.createdAt, before)).returning({ id: domainEvents.id });
  return deleted.length;
}

export const PRUNE_INTERVAL_MS = 3_600_000;
