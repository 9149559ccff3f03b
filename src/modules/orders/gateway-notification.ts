import { and, eq } from 'drizzle-orm';
import { inWriteSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { Checks } from '../../graphql/validation.js';
import { gatewayNotifications, type GatewayNotificationRow } from './gateway-notification.table.js';
import { type SignedCallback, verifyStandardWebhook } from './gateway-signing.js';
import { lockPayment, movePayment, refundPart } from './order.flow.js';
import type { PaymentStatus } from './order.state.js';
import { invoices, orders, payments, type PaymentRow } from './order.table.js';

/**
 * A payment gateway reports in: `POST /gateways/:gateway_credential_id/notifications`
 * (receiveGatewayNotification). The callback is verified with the credential's signing secrets,
 * read into a GatewayNotice by the credential's gateway adapter, and applied through the moves of
 * order.state.ts that updatePaymentStatus and refundPayment make (order.flow.ts): one implementation.
 */

/** What a callback says, in the service's words: a payment's status as the gateway reports it. */
export interface GatewayNotice {
  type: 'payment.status';
  /** The payment: by the service's id, or by its `uuid` (the external identifier given on createPayment). */
  payment: { id: number } | { uuid: string };
  status: PaymentStatus;
  /** Cents: with `refunded`, the part given back by this event (less than what is left: a partial refund); with `confirmed`, the amount paid. */
  amount: number | null;
  reason: string | null;
}

/**
 * A gateway's dialect. `verify` checks the callback's signature with the credential's secrets in
 * force and its age at `now` (a raised 401 `invalid_signature` / `stale_timestamp` otherwise) and
 * gives the gateway's event id, the key a replay is known by; `parse` reads the raw body into a
 * GatewayNotice (UserErrors, a 422, for a body it cannot read). A Stripe or Pagar.me adapter is one
 * more entry of `adapters`, keyed by GatewayCredential.gateway; headers it needs beyond the
 * Standard Webhooks ones become arguments of the route row (order.routes.ts: `header('stripe-signature')`).
 */
export interface GatewayAdapter {
  verify(callback: SignedCallback, secrets: readonly string[], now: Date): { eventId: string; sentAt: Date };
  parse(body: string): GatewayNotice;
}

/**
 * The statuses a gateway may report, as the service names them: the payment moves of
 * order.state.ts, with the usual synonyms (a chargeback is `reversed`, `paid` is `confirmed`).
 */
export const REPORTED_STATUSES: Readonly<Record<string, PaymentStatus>> = {
  initiated: 'initiated',
  under_analysis: 'under_analysis',
  authorized: 'authorized',
  confirmed: 'confirmed',
  paid: 'confirmed',
  failed: 'failed',
  refused: 'failed',
  canceled: 'canceled',
  cancelled: 'canceled',
  refunded: 'refunded',
  reversed: 'reversed',
  chargeback: 'reversed',
  charged_back: 'reversed',
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const wholeNumber = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : null;

/**
 * The service's own dialect (README, Selling): Standard Webhooks headers and the body
 * `{"type": "payment.status", "data": {"payment_id" | "payment_uuid", "status", "amount"?, "reason"?}}`.
 */
export const standardAdapter: GatewayAdapter = {
  verify: verifyStandardWebhook,
  parse(body) {
    const checks = new Checks();
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    if (!isObject(parsed)) checks.add('body', 'invalid', 'must be a JSON object').throwIfAny();
    const doc = parsed as Record<string, unknown>;
    if (doc.type !== 'payment.status') checks.add('type', doc.type === undefined ? 'blank' : 'inclusion', 'must be payment.status');
    if (!isObject(doc.data)) checks.add('data', 'blank').throwIfAny();
    const data = doc.data as Record<string, unknown>;
    const at = checks.nested('data');
    const id = data.payment_id === undefined || data.payment_id === null ? null : wholeNumber(data.payment_id);
    const uuid = typeof data.payment_uuid === 'string' ? data.payment_uuid.trim() : '';
    if (data.payment_id !== undefined && data.payment_id !== null && (id === null || id < 1)) at.add('payment_id', 'invalid', 'must be a payment id');
    else if (id === null && !uuid) at.add('payment_id', 'blank', "can't be blank when payment_uuid is blank");
    const status = typeof data.status === 'string' ? REPORTED_STATUSES[data.status.trim().toLowerCase()] : undefined;
    if (data.status === undefined || data.status === null || data.status === '') at.add('status', 'blank');
    else if (!status) at.add('status', 'inclusion', `must be one of ${Object.keys(REPORTED_STATUSES).join(', ')}`);
    const amount = data.amount === undefined || data.amount === null ? null : wholeNumber(data.amount);
    if (data.amount !== undefined && data.amount !== null && amount === null) at.add('amount', 'invalid', 'must be whole cents');
    else at.range('amount', amount, 1);
    if (data.reason !== undefined && data.reason !== null && typeof data.reason !== 'string') at.add('reason', 'invalid', 'must be text');
    checks.throwIfAny();
    const reason = typeof data.reason === 'string' && data.reason.trim() ? data.reason.trim() : null;
    return { type: 'payment.status', payment: id !== null ? { id } : { uuid }, status: status!, amount, reason };
  },
};

/** Adapters by GatewayCredential.gateway; a gateway without one speaks the service's own dialect. */
const adapters: Readonly<Record<string, GatewayAdapter>> = {};
export const adapterFor = (gateway: string): GatewayAdapter => adapters[gateway.trim().toLowerCase()] ?? standardAdapter;

/** The notification a credential already applied under this event id, if any. */
async function applied(tx: Queryable, credentialId: number, eventId: string): Promise<GatewayNotificationRow | undefined> {
  const [row] = await tx
    .select()
    .from(gatewayNotifications)
    .where(and(eq(gatewayNotifications.gatewayCredentialId, credentialId), eq(gatewayNotifications.eventId, eventId)));
  return row;
}

/**
 * The payment a notice names, of the school the callback proved it speaks for (`ctx`), and not of
 * an order charged through another of its gateway credentials: else a 404, as for any other school's row.
 */
async function paymentOf(tx: Queryable, ctx: Context, credentialId: number, notice: GatewayNotice): Promise<PaymentRow> {
  const named = 'id' in notice.payment ? eq(payments.id, notice.payment.id) : eq(payments.uuid, notice.payment.uuid);
  const [found] = await tx
    .select({ payment: payments, gatewayCredentialId: orders.gatewayCredentialId })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(and(named, inWriteSchool(ctx, payments.schoolId)));
  if (!found || (found.gatewayCredentialId !== null && found.gatewayCredentialId !== credentialId)) throw notFound('Payment');
  return found.payment;
}

/**
 * Applies a verified notice once per event id, in the caller's transaction: a replay (or a twin
 * delivered at the same moment, which waits on the unique index) answers the first delivery's
 * record. Otherwise the payment moves as updatePaymentStatus moves it; a `refunded` naming less
 * than what is left is a partial refund, as refundPayment's; a `confirmed` naming another amount
 * than the payment's is a 422 `price_mismatch`. A move the machine has not is a 422 and nothing is
 * kept, so the gateway's retry is judged again (a refund that overtook its confirmation passes later).
 */
export async function applyNotice(
  tx: Queryable,
  ctx: Context,
  credentialId: number,
  delivery: { eventId: string; sentAt: Date },
  notice: GatewayNotice,
): Promise<GatewayNotificationRow> {
  const earlier = await applied(tx, credentialId, delivery.eventId);
  if (earlier) return earlier;
  const found = await paymentOf(tx, ctx, credentialId, notice);
  const [claimed] = await tx
    .insert(gatewayNotifications)
    .values({
      schoolId: found.schoolId,
      gatewayCredentialId: credentialId,
      eventId: delivery.eventId,
      sentAt: delivery.sentAt,
      type: notice.type,
      paymentId: found.id,
      status: notice.status,
      amount: notice.amount,
      reason: notice.reason,
      paymentStatus: found.status,
      refundedAmount: found.refundedAmount,
    })
    .onConflictDoNothing()
    .returning();
  if (!claimed) return (await applied(tx, credentialId, delivery.eventId))!;

  const locked = await lockPayment(tx, ctx, found.id);
  const { payment } = locked;
  const paid = payment.amount ?? locked.invoice.amount;
  const checks = new Checks().nested('data');
  let moved: PaymentRow;
  if (notice.status === 'refunded' && notice.amount !== null && payment.status === 'confirmed') {
    checks.range('amount', notice.amount, 1, paid - payment.refundedAmount).throwIfAny();
    moved = await refundPart(tx, ctx, locked, notice.amount, notice.reason ?? 'refunded at the gateway');
  } else {
    if (notice.status === 'confirmed' && notice.amount !== null && notice.amount !== paid && payment.status !== 'confirmed')
      checks.add('amount', 'price_mismatch', `must be the payment's amount, ${paid}`).throwIfAny();
    const refunding = notice.status === 'refunded' || notice.status === 'reversed';
    moved = await movePayment(tx, ctx, locked, notice.status, 'updatePaymentStatus', {
      reason: refunding ? notice.reason : undefined,
      message: refunding ? undefined : (notice.reason ?? undefined),
    });
  }
  const [row] = await tx
    .update(gatewayNotifications)
    .set({ paymentStatus: moved.status, refundedAmount: moved.refundedAmount })
    .where(eq(gatewayNotifications.id, claimed.id))
    .returning();
  return row;
}
