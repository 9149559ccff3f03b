/**
 * Recurring orders' requests (the scheduler itself: order.recurring.ts): `cancelSubscription`, and
 * the school's billing terms (`billingSettings`, `updateBillingSettings`).
 */
import 'reflect-metadata';
import { and, eq, ne, sql } from 'drizzle-orm';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { Checks } from '../../graphql/validation.js';
import { billingSettings } from './billing-settings.table.js';
import { refuse } from './order.flow.js';
import { billingTermsOf, endSubscription, isRecurring } from './order.recurring.js';
import { ORDER_KIND_SUBSCRIPTION } from './order.state.js';
import { invoices, orders } from './order.table.js';
import { OrderPayload } from './order.type.js';
import { BillingSettings, BillingSettingsInput } from './subscription.type.js';

const BillingSettingsPayload = Payload(BillingSettings, 'billingSettings');

@Resolver()
export class SubscriptionResolver {
  @Mutation(() => OrderPayload, {
    description:
      'Cancels a confirmed subscription (kind 1 with a period). Paid up: it ends at the end of the paid period (next_invoice_at; canceledAt says when, no further invoice), then the scheduler cancels it and its enrollments. With an invoice not paid: at once. Either way `subscription.canceled`. Anything else: not_subscription; not confirmed: invalid_transition (an unpaid order: cancelOrder). REST: PUT /orders/:id/cancel_subscription.',
  })
  cancelSubscription(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const orderId = parseId(id, 'Order');
    return mutate(ctx, 'order', async (tx) => {
      const current = await lockOwned(tx, ctx, orders, orderId, 'Order');
      if (current.kind !== ORDER_KIND_SUBSCRIPTION || !isRecurring(current)) new Checks().add('kind', 'not_subscription').throwIfAny();
      if (current.status !== 'confirmed') refuse('status', current.status, 'canceled');
      // Already canceled by staff, to end with its period: nothing more to do.
      if (current.canceledAt) return current;
      const now = ctx.now();
      const [owed] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(invoices)
        .where(and(eq(invoices.orderId, current.id), ne(invoices.status, 'paid')));
      if (owed.n > 0 || !current.nextInvoiceAt || current.nextInvoiceAt <= now) return endSubscription(tx, current, now, 'canceled');
      const [issued] = await tx.select({ n: sql<number>`count(*)::int` }).from(invoices).where(eq(invoices.orderId, current.id));
      const [row] = await tx
        .update(orders)
        .set({ occurrences: Math.max(issued.n, 1), canceledAt: current.nextInvoiceAt })
        .where(eq(orders.id, current.id))
        .returning();
      return row;
    });
  }

  @Query(() => BillingSettings, { description: "The school's terms for recurring invoices. REST: GET /billing_settings." })
  billingSettings(@Ctx() ctx: Context) {
    return billingTermsOf(ctx.db, writeSchool(ctx));
  }

  @Mutation(() => BillingSettingsPayload, { description: "Changes the school's due days and grace days (null: the environment's default). REST: PUT /billing_settings." })
  updateBillingSettings(@Arg('input', () => BillingSettingsInput) input: BillingSettingsInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'billingSettings', async (tx) => {
      new Checks().range('dueDays', input.dueDays, 0, 365).range('graceDays', input.graceDays, 0, 365).throwIfAny();
      const set = {
        ...(input.dueDays !== undefined ? { dueDays: input.dueDays } : {}),
        ...(input.graceDays !== undefined ? { graceDays: input.graceDays } : {}),
      };
      await tx
        .insert(billingSettings)
        .values({ schoolId, ...set })
        .onConflictDoUpdate({ target: billingSettings.schoolId, set: { ...set, updatedAt: sql`now()` } });
      return billingTermsOf(tx, schoolId);
    });
  }
}
