import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Transporter } from 'nodemailer';
import { config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { type PollingJob, pollingJob, type PollingOptions } from '../../db/polling-job.js';
import { emitEvent } from '../events/events.js';
import { rowsOf } from '../../db/rows.js';
import { fromAddress } from './mail.links.js';
import { mails } from './mail.table.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Delays before attempt 1, 2, ... after a temporary failure (4xx, connection lost): 8 attempts over about 13 hours. */
export const DEFAULT_MAIL_SCHEDULE_MS: readonly number[] = [0, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, 60 * MINUTE, 4 * 60 * MINUTE, 8 * 60 * MINUTE];

/** What the worker logs (the service's pino logger fits). */
export interface MailLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Rounds every second (pollIntervalMs), 20 mails per round (batchSize). */
export interface MailWorkerOptions extends PollingOptions {
  /** The SMTP server (default SMTP_URL); none: every due mail is marked `kept` and stays readable in the database. */
  smtpUrl?: string | null;
  /** A nodemailer transport of the caller's instead of smtpUrl's. */
  transport?: Transporter;
  schedule?: readonly number[];
  /** How long a claim holds before another instance may take the mail again (2 min). */
  leaseMs?: number;
  logger?: MailLog;
}

/** Its `runOnce` claims what is due, sends it and records the outcome. */
export type MailWorker = PollingJob;

interface Claimed {
  id: number;
  school_id: number;
  user_id: number;
  recipient: string;
  kind: string;
  subject: string;
  text: string;
  html: string;
  message_id: string;
  headers: Record<string, string> | string;
  attempts: number;
  school_name: string;
  sender_name: string | null;
  reply_to: string | null;
}

/** An SMTP failure: permanent on a 5xx reply, temporary otherwise (4xx, no reply: connection refused, timeout). */
export function smtpFailure(error: unknown): { permanent: boolean; code: number | null; message: string } {
  const e = error as { responseCode?: number; response?: string; message?: string; code?: string };
  const code = typeof e?.responseCode === 'number' ? e.responseCode : null;
  const message = (e?.response || e?.message || String(error)).slice(0, 500);
  return { permanent: code !== null && code >= 500 && code < 600, code, message };
}

/**
 * The mail worker, run in every instance. Each round claims due `queued` mails with
 * `FOR UPDATE SKIP LOCKED` and a lease (`claimed_until`), so two instances never send one mail; an
 * instance that dies mid-send leaves a lease that expires and the mail is tried again (the same
 * Message-ID, so a receiving server can tell a repeat).
 */
export function startMailWorker(database: Pick<Database, 'db'>, options: MailWorkerOptions = {}): MailWorker {
  const db = database.db;
  const schedule = options.schedule ?? DEFAULT_MAIL_SCHEDULE_MS;
  const pollIntervalMs = options.pollIntervalMs ?? SECOND;
  const batchSize = options.batchSize ?? 20;
  const leaseMs = options.leaseMs ?? 2 * MINUTE;
  const smtpUrl = options.smtpUrl === undefined ? config.mail.smtpUrl : options.smtpUrl;
  // nodemailer is loaded at the first mail to send, not at start-up (none without SMTP_URL).
  let created: Transporter | undefined;
  let opening: Promise<Transporter> | undefined;
  const sender = async (): Promise<Transporter | null> =>
    options.transport ?? (smtpUrl ? (opening ??= import('nodemailer').then(({ default: nodemailer }) => (created = nodemailer.createTransport(smtpUrl)))) : null);
  const log = options.logger;

  async function claim(): Promise<Claimed[]> {
    const result = await db.execute(sql`
      with claimed as (
        update ${mails} set claimed_until = now() + make_interval(secs => ${leaseMs / 1000})
        where ${mails.id} in (
          select m.id from ${mails} m
          where m.status = 'queued' and m.next_attempt_at <= now() and (m.claimed_until is null or m.claimed_until < now())
          order by m.next_attempt_at, m.id
          limit ${batchSize}
          for update skip locked)
        returning id, school_id, user_id, recipient, kind, subject, text, html, message_id, headers, attempts)
      select claimed.*, s.name as school_name, ms.sender_name, ms.reply_to
      from claimed join schools s on s.id = claimed.school_id left join mail_settings ms on ms.school_id = claimed.school_id`);
    return rowsOf<Claimed>(result).map((r) => ({ ...r, id: Number(r.id), school_id: Number(r.school_id), user_id: Number(r.user_id), attempts: Number(r.attempts) }));
  }

  /** Records the outcome, only while the mail is still ours (queued with the attempts we claimed it at). */
  async function record(row: Claimed, set: PgUpdateSetSource<typeof mails>, tx: Queryable = db): Promise<boolean> {
    const updated = await tx
      .update(mails)
      .set({ ...set, claimedUntil: null, updatedAt: sql`now()` })
      .where(and(eq(mails.id, row.id), eq(mails.status, 'queued'), eq(mails.attempts, row.attempts)))
      .returning({ id: mails.id });
    return updated.length > 0;
  }

  async function attempt(row: Claimed) {
    const attempts = row.attempts + 1;
    const fields = { mailId: row.id, schoolId: row.school_id, kind: row.kind, attempt: attempts };
    const transport = await sender();
    if (!transport) {
      await record(row, { status: 'kept' });
      log?.info(fields, 'mail kept (no SMTP_URL)');
      return;
    }
    const headers = typeof row.headers === 'string' ? JSON.parse(row.headers) : row.headers;
    try {
      const info = await transport.sendMail({
        from: { name: row.sender_name || row.school_name, address: fromAddress() },
        to: row.recipient,
        replyTo: row.reply_to || undefined,
        subject: row.subject,
        text: row.text,
        html: row.html,
        messageId: row.message_id,
        date: new Date(),
        headers,
      });
      await record(row, { status: 'sent', attempts, sentAt: sql`now()`, lastError: null });
      log?.info({ ...fields, response: info.response }, 'mail sent');
    } catch (error) {
      const failure = smtpFailure(error);
      const delay = failure.permanent ? null : (schedule[attempts] ?? null);
      const status = delay === null ? 'failed' : 'queued';
      const set = {
        status,
        attempts,
        lastError: failure.message,
        ...(delay === null ? {} : { nextAttemptAt: sql`now() + make_interval(secs => ${delay / 1000})` }),
      } as const;
      if (status === 'queued') await record(row, set);
      else
        // Given up: the school hears of it (events, webhooks) in the same transaction as the status.
        await db.transaction(async (tx) => {
          if (!(await record(row, set, tx))) return;
          await emitEvent(tx, {
            schoolId: row.school_id,
            name: 'mail.failed',
            subjectType: 'Mail',
            subjectId: row.id,
            payload: { userId: row.user_id, kind: row.kind, attempts, responseCode: failure.code },
          });
        });
      log?.warn({ ...fields, responseCode: failure.code, error: failure.message, status }, status === 'failed' ? 'mail failed' : 'mail deferred');
    }
  }

  async function runOnce(): Promise<number> {
    const claimed = await claim();
    // One at a time: an SMTP connection per mail, and a server's rate limits are met by order, not by a burst.
    for (const row of claimed) await attempt(row).catch((e) => options.onError?.(e));
    return claimed.length;
  }

  return pollingJob(runOnce, {
    batchSize,
    intervalMs: pollIntervalMs,
    poll: options.poll,
    onError: options.onError,
    onStop: () => {
      created?.close();
    },
  });
}
