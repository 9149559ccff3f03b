import { and, asc, count, eq, gt, inArray, isNotNull, isNull, lt, lte, max, ne, or, sql, type SQL } from 'drizzle-orm';
import { config } from '../../config.js';
import { pollingJob } from '../../db/polling-job.js';
import type { Database, Queryable } from '../../db/client.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { emitRowEvent } from '../events/events.js';
import { billingSettings } from './billing-settings.table.js';
import { cancelOrderEnrollments } from './order.enroll.js';
import { ORDER_KIND_INSTALLMENTS, ORDER_KIND_SUBSCRIPTION, PERIOD_MONTHS } from './order.state.js';
import { invoices, orders, type InvoiceRow, type OrderRow } from './order.table.js';

/**
 * Recurring orders. Reading of the spec's ranges (order.state.ts): kind 1 (subscription) and kind 2
 * (installment plan) with a period 1..4 (monthly, quarterly, semiannual, annual) recur; kind 0
 * (common) and 3 (free), or period 0, do not. Every invoice is the order's `amount_to_pay`.
 *
 * The first invoice is opened by createOrder; confirming the order sets `next_invoice_at` one period
 * after the confirmation when it was not given. From then on the scheduler, run in every instance,
 * does four steps, each under row locks taken with `FOR UPDATE SKIP LOCKED` and each re-checking its
 * condition on the locked row, so two instances never do one step twice:
 *
 * 1. `end`: a subscription whose `occurrences` are all invoiced and whose `next_invoice_at` (the end
 *    of the last paid period) has come is canceled with its enrollments (`subscription.canceled`).
 *    An installment plan whose occurrences are all invoiced keeps its access (it was a purchase).
 * 2. `open`: at `next_invoice_at`, the next invoice (occurrence + 1), `open`, due after the school's
 *    due days; `next_invoice_at` advances one period from where it was (late runs catch up).
 * 3. `overdue`: a recurring invoice not paid past its due date.
 * 4. `unpaid`: an overdue invoice past the school's grace period; its order is suspended: its active
 *    enrollments become `deactivated` (the spec's enrollment status; the student reads nothing through
 *    them) until no unpaid invoice is left (`resumeIfSettled`, in the payment's transaction).
 *
 * Lock order is the one of order.flow.ts (order, then invoice), so the scheduler and a payment never
 * deadlock; the overdue step locks only invoices.
 */

export interface BillingTerms {
  dueDays: number;
  graceDays: number;
}

/** Whether an order bills again every period. */
export function isRecurring(order: Pick<OrderRow, 'kind' | 'period'>): boolean {
  return (order.kind === ORDER_KIND_SUBSCRIPTION || order.kind === ORDER_KIND_INSTALLMENTS) && PERIOD_MONTHS[order.period] !== undefined;
}

/** `at` one period later, by calendar months in UTC; a day the month lacks is its last day (31 Jan + 1 month = 28/29 Feb). */
export function addPeriod(at: Date, period: number): Date {
  const months = PERIOD_MONTHS[period] ?? 0;
  const next = new Date(at);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(at.getUTCDate(), lastDay));
  return next;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A school's billing terms: its settings, else the environment's defaults. */
export async function billingTermsOf(db: Queryable, schoolId: number): Promise<BillingTerms & { schoolId: number }> {
  const [row] = await db.select().from(billingSettings).where(eq(billingSettings.schoolId, schoolId));
  return { schoolId, dueDays: row?.dueDays ?? config.billing.dueDays, graceDays: row?.graceDays ?? config.billing.graceDays };
}

/** The `next_invoice_at` a recurring order takes on confirmation when none was given (none for a plan of one occurrence). */
export function firstNextInvoiceAt(order: OrderRow, confirmedAt: Date): Date | null {
  if (order.nextInvoiceAt || !isRecurring(order)) return order.nextInvoiceAt;
  if (order.kind === ORDER_KIND_INSTALLMENTS && order.occurrences !== null && order.occurrences <= 1) return null;
  return addPeriod(confirmedAt, order.period);
}

const invoiceCount = sql<number>`(select count(*) from ${invoices} where ${invoices.orderId} = ${orders.id})`;
const recurring = and(inArray(orders.kind, [ORDER_KIND_SUBSCRIPTION, ORDER_KIND_INSTALLMENTS]), sql`${orders.period} between 1 and 4`);

/** The enrollments of `order` that are `from`, moved to `to`; their ids. */
async function moveEnrollments(tx: Queryable, order: OrderRow, from: 'active' | 'deactivated', to: 'active' | 'deactivated'): Promise<number[]> {
  const moved = await tx
    .update(enrollments)
    .set({ status: to, updatedAt: sql`now()` })
    .where(and(eq(enrollments.orderId, order.id), eq(enrollments.status, from)))
    .returning({ id: enrollments.id });
  return moved.map((e) => e.id).sort((a, b) => a - b);
}

/**
 * Ends a locked subscription now: canceled (its schedule cleared), its enrollments canceled,
 * `subscription.canceled`. `reason` ended: its occurrences ran out; canceled: staff canceled it.
 */
export async function endSubscription(tx: Queryable, order: OrderRow, now: Date, reason: 'ended' | 'canceled'): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    .set({ status: 'canceled', canceledAt: now, nextInvoiceAt: null, suspendedAt: null })
    .where(eq(orders.id, order.id))
    .returning();
  const canceled = await cancelOrderEnrollments(tx, row);
  await emitRowEvent(tx, 'subscription.canceled', row, { studentId: row.studentId, invoiceId: null, enrollmentIds: canceled.map((e) => e.id).sort((a, b) => a - b), reason });
  return row;
}

/**
 * An invoice past its due date and the school's grace period (its billing settings joined as
 * `billing_settings`, else BILLING_GRACE_DAYS): the condition that suspends an order.
 */
function pastGrace(now: Date): SQL {
  return sql`${invoices.dueAt} + make_interval(days => coalesce(${billingSettings.graceDays}, ${config.billing.graceDays})::int) < ${now.toISOString()}::timestamptz`;
}

/**
 * After an invoice of a locked order was paid: a suspended order none of whose invoices is left
 * unpaid past its grace period (the condition that suspended it, whatever status a payment under
 * way gave the invoice since) resumes, the enrollments its suspension deactivated active again
 * (`subscription.resumed`).
 */
export async function resumeIfSettled(tx: Queryable, order: OrderRow, invoice: InvoiceRow, now: Date): Promise<void> {
  if (!order.suspendedAt || order.status !== 'confirmed') return;
  const [left] = await tx
    .select({ n: count() })
    .from(invoices)
    .leftJoin(billingSettings, eq(billingSettings.schoolId, invoices.schoolId))
    .where(and(eq(invoices.orderId, order.id), ne(invoices.status, 'paid'), or(eq(invoices.status, 'unpaid'), pastGrace(now))));
  if (left.n > 0) return;
  const [row] = await tx.update(orders).set({ suspendedAt: null }).where(eq(orders.id, order.id)).returning();
  const restored = await moveEnrollments(tx, row, 'deactivated', 'active');
  await emitRowEvent(tx, 'subscription.resumed', row, { studentId: row.studentId, invoiceId: invoice.id, enrollmentIds: restored });
}

const invoicePayload = (invoice: InvoiceRow) => ({
  orderId: invoice.orderId,
  status: invoice.status,
  amount: invoice.amount,
  occurrence: invoice.occurrence,
  dueAt: invoice.dueAt?.toISOString() ?? null,
});

/** What one round did, step by step. */
export interface RecurringRound {
  ended: number;
  opened: number;
  overdue: number;
  unpaid: number;
}

export interface RecurringSchedulerOptions {
  /** The service clock (default: the system's); runOnce(now) overrides it for one round. */
  now?: () => Date;
  /** How often to look for due work (BILLING_SCHEDULER_INTERVAL_SECONDS). */
  intervalMs?: number;
  /** Rows claimed per statement (50). */
  batchSize?: number;
  /** false: no polling, rounds only through runOnce (tests). */
  poll?: boolean;
  onError?: (error: unknown) => void;
}

export interface RecurringScheduler {
  /** One round at `now`: every step until nothing is due. */
  runOnce(now?: Date): Promise<RecurringRound>;
  stop(): Promise<void>;
}

/** The recurring scheduler, run in every instance (server.ts); the test service never starts it. */
export function startRecurringScheduler(database: Pick<Database, 'db'>, options: RecurringSchedulerOptions = {}): RecurringScheduler {
  const db = database.db;
  const clock = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 50;

  /** Confirmed recurring orders whose `next_invoice_at` has come and that meet `condition`, locked; those another instance holds are skipped. */
  function claimDue(tx: Queryable, now: Date, condition: SQL) {
    return tx
      .select()
      .from(orders)
      .where(and(eq(orders.status, 'confirmed'), recurring, lte(orders.nextInvoiceAt, now), condition))
      .orderBy(asc(orders.nextInvoiceAt), asc(orders.id))
      .limit(batchSize)
      .for('update', { skipLocked: true });
  }

  /** Step 1: subscriptions whose last invoiced period has run out. */
  async function end(now: Date): Promise<number> {
    return db.transaction(async (tx) => {
      const due = await claimDue(tx, now, and(isNotNull(orders.occurrences), sql`${invoiceCount} >= ${orders.occurrences}`)!);
      for (const order of due) {
        if (order.kind === ORDER_KIND_SUBSCRIPTION) await endSubscription(tx, order, now, order.canceledAt ? 'canceled' : 'ended');
        else await tx.update(orders).set({ nextInvoiceAt: null }).where(eq(orders.id, order.id));
      }
      return due.length;
    });
  }

  /** Step 2: the next invoice of each due order. */
  async function open(now: Date): Promise<number> {
    return db.transaction(async (tx) => {
      const due = await claimDue(tx, now, and(gt(orders.amountToPay, 0), or(isNull(orders.occurrences), sql`${invoiceCount} < ${orders.occurrences}`))!);
      const terms = new Map<number, BillingTerms>();
      for (const order of due) {
        if (!terms.has(order.schoolId)) terms.set(order.schoolId, await billingTermsOf(tx, order.schoolId));
        const at = order.nextInvoiceAt!;
        const [last] = await tx.select({ occurrence: max(invoices.occurrence) }).from(invoices).where(eq(invoices.orderId, order.id));
        const occurrence = (last?.occurrence ?? 0) + 1;
        const [invoice] = await tx
          .insert(invoices)
          .values({ schoolId: order.schoolId, orderId: order.id, amount: order.amountToPay, occurrence, status: 'open', dueAt: new Date(at.getTime() + terms.get(order.schoolId)!.dueDays * DAY_MS) })
          .returning();
        // A plan's last installment leaves nothing to schedule; a subscription's next_invoice_at is then its end.
        const lastOfPlan = order.kind === ORDER_KIND_INSTALLMENTS && order.occurrences !== null && occurrence >= order.occurrences;
        await tx
          .update(orders)
          .set({ nextInvoiceAt: lastOfPlan ? null : addPeriod(at, order.period) })
          .where(eq(orders.id, order.id));
        await emitRowEvent(tx, 'invoice.created', invoice, invoicePayload(invoice));
      }
      return due.length;
    });
  }

  /**
   * Step 3: open invoices of confirmed recurring orders past their due date. One with a payment under
   * way (waiting_confirmation) waits for it: failed, the invoice is open again and the next round marks it.
   */
  async function overdue(now: Date): Promise<number> {
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ invoice: invoices })
        .from(invoices)
        .innerJoin(orders, eq(orders.id, invoices.orderId))
        .where(and(inArray(invoices.status, ['unsent', 'open']), lt(invoices.dueAt, now), eq(orders.status, 'confirmed')))
        .orderBy(asc(invoices.dueAt), asc(invoices.id))
        .limit(batchSize)
        .for('update', { of: invoices, skipLocked: true });
      for (const { invoice } of due) {
        const [row] = await tx.update(invoices).set({ status: 'overdue' }).where(eq(invoices.id, invoice.id)).returning();
        await emitRowEvent(tx, 'invoice.overdue', row, invoicePayload(row));
      }
      return due.length;
    });
  }

  /** Step 4: overdue invoices past the school's grace period: unpaid, and their order suspended. */
  async function unpaid(now: Date): Promise<number> {
    const late = pastGrace(now);
    return db.transaction(async (tx) => {
      // The orders first (the lock order of order.flow.ts), then their invoices.
      const due = await tx
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.status, 'confirmed'),
            sql`exists (select 1 from ${invoices} left join ${billingSettings} on ${billingSettings.schoolId} = ${invoices.schoolId}
              where ${invoices.orderId} = ${orders.id} and ${invoices.status} = 'overdue' and ${late})`,
          ),
        )
        .orderBy(asc(orders.id))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      let moved = 0;
      for (const order of due) {
        const lapsed = await tx
          .select({ invoice: invoices })
          .from(invoices)
          .leftJoin(billingSettings, eq(billingSettings.schoolId, invoices.schoolId))
          .where(and(eq(invoices.orderId, order.id), eq(invoices.status, 'overdue'), late))
          .orderBy(asc(invoices.occurrence))
          .for('update', { of: invoices });
        let last: InvoiceRow | null = null;
        for (const { invoice } of lapsed) {
          [last] = await tx.update(invoices).set({ status: 'unpaid' }).where(and(eq(invoices.id, invoice.id), eq(invoices.status, 'overdue'))).returning();
          await emitRowEvent(tx, 'invoice.overdue', last, invoicePayload(last));
          moved += 1;
        }
        if (last && !order.suspendedAt) {
          const [row] = await tx.update(orders).set({ suspendedAt: now }).where(eq(orders.id, order.id)).returning();
          const suspended = await moveEnrollments(tx, row, 'active', 'deactivated');
          await emitRowEvent(tx, 'subscription.suspended', row, { studentId: row.studentId, invoiceId: last.id, enrollmentIds: suspended });
        }
      }
      return moved;
    });
  }

  /** A step repeated until it finds nothing (late runs catch up, period by period; bounded against a step that never settles). */
  async function drain(step: (now: Date) => Promise<number>, now: Date): Promise<number> {
    let total = 0;
    for (let i = 0; i < 1000; i++) {
      const n = await step(now);
      total += n;
      if (n === 0) break;
    }
    return total;
  }

  async function runOnce(at?: Date): Promise<RecurringRound> {
    const now = at ?? clock();
    const ended = await drain(end, now);
    const opened = await drain(open, now);
    const overdueCount = await drain(overdue, now);
    const unpaidCount = await drain(unpaid, now);
    return { ended, opened, overdue: overdueCount, unpaid: unpaidCount };
  }

  // Each step drains what is due itself: the loop only waits for the next interval.
  const job = pollingJob(async () => (await runOnce(), 0), {
    batchSize: Number.POSITIVE_INFINITY,
    intervalMs: options.intervalMs ?? config.billing.schedulerIntervalMs,
    poll: options.poll,
    onError: options.onError,
  });
  return { runOnce, stop: job.stop };
}
