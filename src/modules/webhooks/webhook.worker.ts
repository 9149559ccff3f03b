import { and, eq, sql } from 'drizzle-orm';
import { decryptSecret } from '../../auth/secrets.js';
import { config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { type PollingJob, pollingJob, type PollingOptions } from '../../db/polling-job.js';
import { integrations } from '../integrations/integration.table.js';
import { notify } from '../notifications/notification.notify.js';
import { users } from '../users/user.table.js';
import { postWebhook } from './webhook.http.js';
import { signedHeaders, signingSecretsOf } from './webhook.secrets.js';
import { webhookAttempts, webhookDeliveries } from './webhook.table.js';
import { rowsOf } from '../../db/rows.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * When each attempt is made, measured from the failure before it: Standard Webhooks' own schedule
 * (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h): 8 attempts over about 27.5 hours. Each
 * delay but the first is spread by ±20 % jitter so that a receiver coming back is not hit by every
 * retry at once. After the last attempt fails the delivery is `failed` (redeliverable).
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

/**
 * An integration is disabled (active = false, and the school's admins are notified) when a
 * delivery fails for good and none of its deliveries has succeeded since its first failed
 * delivery at least this long ago: failing without a break for 5 days, as Svix does it. A single
 * bad day (one exhausted delivery after ~27 h) does not disable it.
 */
export const DEFAULT_DISABLE_AFTER_MS = 5 * 24 * HOUR;

/** Rounds every second (pollIntervalMs), 20 deliveries sent concurrently per round (batchSize). */
export interface WebhookWorkerOptions extends PollingOptions {
  /** Delays before attempt 1, 2, ... (ms); its length is the number of attempts. */
  schedule?: readonly number[];
  /** The jitter applied to each delay: ±this fraction (0.2). */
  jitter?: number;
  /** Timeout of one attempt (10 s). */
  timeoutMs?: number;
  /** Allow loopback and private addresses; default WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true in the environment. */
  allowPrivateNetworks?: boolean;
  /** See DEFAULT_DISABLE_AFTER_MS. */
  disableAfterMs?: number;
}

/** Its `runOnce` claims what is due, sends it and records the outcome. */
export type WebhookWorker = PollingJob;

interface Claimed {
  id: number;
  school_id: number;
  integration_id: number;
  event_id: number;
  attempt_count: number;
  metaconfig_ciphertext: string | null;
  event_name: string;
  subject_type: string;
  subject_id: number | null;
  payload: Record<string, unknown> | string;
  event_created_at: Date | string;
}

/** The JSON body of an event (Standard Webhooks' envelope: type, timestamp, data). */
export function webhookBody(row: Pick<Claimed, 'event_id' | 'event_name' | 'subject_type' | 'subject_id' | 'payload' | 'event_created_at'>) {
  const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
  return {
    id: String(row.event_id),
    type: row.event_name,
    timestamp: new Date(row.event_created_at).toISOString(),
    data: { ...payload, subject: { type: row.subject_type, id: row.subject_id } },
  };
}

function urlOf(row: Claimed): string | null {
  if (!row.metaconfig_ciphertext) return null;
  try {
    const url = JSON.parse(decryptSecret(row.metaconfig_ciphertext)).url;
    return typeof url === 'string' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The webhook worker: run it in every service process. Each round claims due deliveries with
 * `FOR UPDATE SKIP LOCKED` and a lease (`locked_until`), so several processes never send one
 * delivery at once; a process that dies mid-send leaves a lease that expires and the delivery is
 * retried (receivers dedupe on `webhook-id`, which is the event's id and never changes).
 */
export function startWebhookWorker(database: Pick<Database, 'db'>, options: WebhookWorkerOptions = {}): WebhookWorker {
  const db = database.db;
  const schedule = options.schedule ?? DEFAULT_RETRY_SCHEDULE_MS;
  const jitter = options.jitter ?? 0.2;
  const timeoutMs = options.timeoutMs ?? 10 * SECOND;
  const pollIntervalMs = options.pollIntervalMs ?? SECOND;
  const batchSize = options.batchSize ?? 20;
  const allowPrivate = options.allowPrivateNetworks ?? config.webhooksAllowPrivateNetworks;
  const disableAfterMs = options.disableAfterMs ?? DEFAULT_DISABLE_AFTER_MS;
  // The lease outlasts the attempts of a round (they run concurrently, each within timeoutMs).
  const leaseMs = timeoutMs + 30 * SECOND;

  const delayAfter = (attemptsMade: number): number | null => {
    if (attemptsMade >= schedule.length) return null;
    const base = schedule[attemptsMade];
    return Math.max(0, Math.round(base * (1 - jitter + 2 * jitter * Math.random())));
  };

  async function claim(): Promise<Claimed[]> {
    const d = webhookDeliveries;
    const result = await db.execute(sql`
      with claimed as (
        update ${d} set locked_until = now() + make_interval(secs => ${leaseMs / 1000})
        where ${d.id} in (
          select wd.id from ${d} wd join ${integrations} i on i.id = wd.integration_id and i.active
          where wd.status = 'pending' and wd.next_attempt_at <= now() and (wd.locked_until is null or wd.locked_until < now())
          order by wd.next_attempt_at, wd.id
          limit ${batchSize}
          for update of wd skip locked)
        returning ${d.id}, ${d.schoolId}, ${d.integrationId}, ${d.eventId}, ${d.attemptCount})
      select claimed.*, i.metaconfig_ciphertext, e.name as event_name, e.subject_type, e.subject_id, e.payload, e.created_at as event_created_at
      from claimed join ${integrations} i on i.id = claimed.integration_id join domain_events e on e.id = claimed.event_id`);
    return rowsOf<Claimed>(result).map((r) => ({
      ...r,
      id: Number(r.id),
      school_id: Number(r.school_id),
      integration_id: Number(r.integration_id),
      event_id: Number(r.event_id),
      attempt_count: Number(r.attempt_count),
    }));
  }

  /** A delivery failed for good: disables its integration when it has failed without a break for disableAfterMs. */
  async function maybeDisable(tx: Queryable, row: Claimed) {
    const result = await tx.execute(sql`
      select min(f.created_at) <= now() - make_interval(secs => ${disableAfterMs / 1000}) as disable
      from webhook_deliveries f
      where f.integration_id = ${row.integration_id} and f.status = 'failed'
        and f.created_at > coalesce((select max(s.delivered_at) from webhook_deliveries s
                                     where s.integration_id = ${row.integration_id} and s.status = 'succeeded'), '-infinity')`);
    if (!rowsOf<{ disable: boolean | null }>(result)[0]?.disable) return;
    const [disabled] = await tx
      .update(integrations)
      .set({ active: false })
      .where(and(eq(integrations.id, row.integration_id), eq(integrations.active, true)))
      .returning({ id: integrations.id });
    if (!disabled) return;
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.schoolId, row.school_id), eq(users.type, 'Admin')));
    await notify(
      tx,
      row.school_id,
      admins.map((a) => ({
        userId: a.id,
        text: `Integration ${row.integration_id} was disabled: its webhooks have failed for ${Math.round(disableAfterMs / HOUR)} hours. Fix the receiver, set it active again and redeliver the failed deliveries.`,
        url: `/integrations/${row.integration_id}/deliveries`,
      })),
    );
  }

  async function attempt(row: Claimed, secrets: string[]) {
    const startedAt = new Date();
    const url = urlOf(row);
    const body = JSON.stringify(webhookBody(row));
    const msgId = String(row.event_id);
    const sent =
      url === null
        ? { status: null, error: 'the integration has no metaconfig.url', durationMs: 0 }
        : secrets.length === 0
          ? { status: null, error: 'the integration has no signing secret (rotateIntegrationSecret makes one)', durationMs: 0 }
          : await postWebhook(url, body, signedHeaders(msgId, new Date(), body, secrets), { timeoutMs, allowPrivate });
    const attempts = row.attempt_count + 1;
    const ok = sent.error === null;
    const delay = ok ? null : delayAfter(attempts);
    const nextAttemptAt = delay === null ? null : sql`now() + make_interval(secs => ${delay / 1000})`;
    await db.transaction(async (tx) => {
      const [next] = await tx
        .update(webhookDeliveries)
        .set({
          status: ok ? 'succeeded' : delay === null ? 'failed' : 'pending',
          attemptCount: attempts,
          nextAttemptAt: nextAttemptAt ?? null,
          lockedUntil: null,
          lastResponseStatus: sent.status,
          lastError: sent.error,
          ...(ok ? { deliveredAt: sql`now()` } : {}),
        })
        // Only while still ours: a redelivery meanwhile starts a new round.
        .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.attemptCount, row.attempt_count), eq(webhookDeliveries.status, 'pending')))
        .returning({ nextAttemptAt: webhookDeliveries.nextAttemptAt });
      await tx.insert(webhookAttempts).values({
        schoolId: row.school_id,
        deliveryId: row.id,
        startedAt,
        durationMs: sent.durationMs,
        responseStatus: sent.status,
        error: sent.error,
        nextAttemptAt: next?.nextAttemptAt ?? null,
      });
      if (next && !ok && delay === null) await maybeDisable(tx, row);
    });
  }

  async function runOnce(): Promise<number> {
    const claimed = await claim();
    if (claimed.length === 0) return 0;
    const secrets = await signingSecretsOf(db, [...new Set(claimed.map((c) => c.integration_id))]);
    await Promise.all(claimed.map((row) => attempt(row, secrets.get(row.integration_id) ?? []).catch((e) => options.onError?.(e))));
    return claimed.length;
  }

  return pollingJob(runOnce, {
    batchSize,
    intervalMs: pollIntervalMs,
    poll: options.poll,
    onError: options.onError,
  });
}
