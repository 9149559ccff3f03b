import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgEnum, text } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { indexOn, orderedIndex, uniqueIndexOn } from '../../db/indexes.js';
import { schoolTable } from '../../db/tables.js';
import { users } from '../users/user.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';

// Money is integer cents throughout.

export const gatewayEnvironment = pgEnum('gateway_environment', ['sandbox', 'production']);
export const orderStatus = pgEnum('order_status', [
  'initiated',
  'processing',
  'no_wait_processing',
  'confirmed',
  'canceled',
]);
export const invoiceStatus = pgEnum('invoice_status', [
  'unsent',
  'open',
  'waiting_confirmation',
  'paid',
  'unpaid',
  'overdue',
]);
export const paymentStatus = pgEnum('payment_status', [
  'unsent',
  'failed',
  'initiated',
  'under_analysis',
  'waiting_boleto',
  'canceled',
  'authorized',
  'confirmed',
  'reversed',
  'refunded',
]);

/** A way to buy a school product: a price and how many installments it may be split into. */
export const paymentOptions = schoolTable(
  'payment_options',
  {
    schoolProductId: integer().references(() => schoolProducts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    price: integer().notNull(),
    /** The price in the school's credits, when the option can be paid with them. */
    priceInCredits: integer(),
    installmentsMax: integer(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.schoolProductId),
    check('payment_options_price_non_negative', sql`${t.price} >= 0`),
    check('payment_options_installments_max_positive', sql`${t.installmentsMax} > 0`),
    check('payment_options_price_in_credits_non_negative', sql`${t.priceInCredits} >= 0`),
  ],
);

export const coupons = schoolTable(
  'coupons',
  {
    code: text().notNull(),
    discountPercent: integer(),
    discountAmount: integer(),
    active: boolean().notNull().default(true),
    /** The coupon applies from this time (none: already). */
    validFrom: tstz(),
    /** ... until this time, excluded (none: forever). */
    validUntil: tstz(),
    /** How many orders may use it (none: unlimited); `usesCount` counts them, under the coupon's row lock. */
    maxUses: integer(),
    usesCount: integer().notNull().default(0),
    /** Only items of this product take the discount (none: every product). */
    schoolProductId: integer().references(() => schoolProducts.id, { onDelete: 'cascade' }),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    uniqueIndexOn(t.schoolId, t.code),
    indexOn(t.schoolProductId),
    check('coupons_max_uses_positive', sql`${t.maxUses} > 0`),
    check('coupons_uses_count_non_negative', sql`${t.usesCount} >= 0`),
    check('coupons_discount_percent_range', sql`${t.discountPercent} between 0 and 100`),
    check('coupons_discount_amount_non_negative', sql`${t.discountAmount} >= 0`),
  ],
);

/** A single-use token of a coupon. */
export const couponTokens = schoolTable(
  'coupon_tokens',
  {
    couponId: belongsTo(() => coupons.id),
    token: text().notNull(),
    usedAt: tstz(),
  },
  (t) => [
    uniqueIndexOn(t.schoolId, t.token),
    indexOn(t.couponId),
  ],
);

/**
 * A school's account at a payment gateway. The secret key is stored encrypted and never returned
 * by the API; only its last characters (the hint) are shown.
 */
export const gatewayCredentials = schoolTable(
  'gateway_credentials',
  {
    gateway: text().notNull(),
    name: text(),
    environment: gatewayEnvironment().notNull().default('sandbox'),
    publicKey: text(),
    secretKeyCiphertext: text(),
    secretKeyHint: text(),
  },
  (t) => [orderedIndex(t.schoolId, t.id)],
);

export const orders = schoolTable(
  'orders',
  {
    studentId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    gatewayCredentialId: integer().references(() => gatewayCredentials.id, { onDelete: 'set null' }),
    couponId: integer().references(() => coupons.id, { onDelete: 'set null' }),
    /** Price with discounts. */
    amountToPay: integer().notNull().default(0),
    /** Price without discounts. */
    total: integer().notNull().default(0),
    kind: integer().notNull().default(0),
    period: integer().notNull().default(0),
    confirmedAt: tstz(),
    /** A recurring order's next charge: the scheduler opens an invoice then (order.recurring.ts). */
    nextInvoiceAt: tstz(),
    /** How many invoices a subscription or installment plan has in all (none: until canceled). */
    occurrences: integer(),
    /** Set while an invoice of it is unpaid: its enrollments are deactivated until it is paid. */
    suspendedAt: tstz(),
    canceledAt: tstz(),
    /** External identifier. */
    uuid: text(),
    status: orderStatus().notNull().default('initiated'),
    gatewayReference: text(),
    response: text(),
    message: text(),
    test: boolean().notNull().default(false),
    success: boolean().notNull().default(false),
    /** An import kept amounts that differ from the computed ones (history is kept as it was). */
    priceOverridden: boolean().notNull().default(false),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.studentId),
    indexOn(t.gatewayCredentialId),
    indexOn(t.couponId),
    uniqueIndexOn(t.schoolId, t.uuid),
    // The recurring scheduler's look-up: due orders.
    indexOn(t.nextInvoiceAt),
    // Reports (modules/reports): a school's orders of a period.
    indexOn(t.schoolId, t.createdAt),
    check('orders_occurrences_positive', sql`${t.occurrences} > 0`),
    check('orders_kind_range', sql`${t.kind} between 0 and 3`),
    check('orders_period_range', sql`${t.period} between 0 and 4`),
  ],
);

export const orderItems = schoolTable(
  'order_items',
  {
    orderId: belongsTo(() => orders.id),
    paymentOptionId: integer()
      .notNull()
      .references(() => paymentOptions.id, { onDelete: 'restrict' }),
    couponTokenId: integer().references(() => couponTokens.id, { onDelete: 'set null' }),
    quantity: integer().notNull().default(1),
    total: integer().notNull(),
    amountToPay: integer(),
    amountToPayInCredits: integer(),
    totalInCredits: integer(),
    /** An import kept amounts that differ from the computed ones. */
    priceOverridden: boolean().notNull().default(false),
  },
  (t) => [
    indexOn(t.orderId),
    indexOn(t.paymentOptionId),
    indexOn(t.couponTokenId),
    indexOn(t.schoolId),
    check('order_items_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

export const invoices = schoolTable(
  'invoices',
  {
    orderId: belongsTo(() => orders.id),
    amount: integer().notNull(),
    occurrence: integer().notNull(),
    status: invoiceStatus().notNull().default('unsent'),
    uuid: text(),
    nextChargeAt: tstz(),
    /** When a recurring invoice falls due: past it unpaid it is overdue, past the grace period unpaid. */
    dueAt: tstz(),
  },
  (t) => [
    indexOn(t.orderId, t.occurrence),
    indexOn(t.schoolId),
    // The recurring scheduler's look-up: invoices falling due.
    indexOn(t.status, t.dueAt),
    uniqueIndexOn(t.schoolId, t.uuid),
  ],
);

export const payments = schoolTable(
  'payments',
  {
    invoiceId: belongsTo(() => invoices.id),
    kind: integer().notNull(),
    status: paymentStatus().notNull().default('unsent'),
    amount: integer(),
    uuid: text(),
    gatewayReference: text(),
    link: text(),
    boletoCode: text(),
    cardholder: text(),
    response: text(),
    message: text(),
    success: boolean().notNull().default(false),
    test: boolean().notNull().default(false),
    installments: integer(),
    gatewayFees: integer(),
    /** Cents given back so far (refundPayment); the payment is refunded when it reaches the amount. */
    refundedAmount: integer().notNull().default(0),
    refundReason: text(),
  },
  (t) => [
    indexOn(t.invoiceId),
    indexOn(t.schoolId),
    uniqueIndexOn(t.schoolId, t.uuid),
    // Reports (modules/reports): a school's payments of a period.
    indexOn(t.schoolId, t.createdAt),
    check('payments_kind_range', sql`${t.kind} between 0 and 3`),
    check('payments_installments_positive', sql`${t.installments} > 0`),
    check('payments_refunded_amount_non_negative', sql`${t.refundedAmount} >= 0`),
  ],
);

export type PaymentOptionRow = typeof paymentOptions.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;
export type CouponTokenRow = typeof couponTokens.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
