import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps, tstz } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
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
export const paymentOptions = pgTable(
  'payment_options',
  {
    id: id(),
    schoolId: schoolRef(),
    schoolProductId: integer().references(() => schoolProducts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    price: integer().notNull(),
    installmentsMax: integer(),
    ...timestamps,
  },
  (t) => [
    index('payment_options_school_id_idx').on(t.schoolId, t.id),
    index('payment_options_school_product_id_idx').on(t.schoolProductId),
    check('payment_options_price_non_negative', sql`${t.price} >= 0`),
    check('payment_options_installments_max_positive', sql`${t.installmentsMax} > 0`),
  ],
);

export const coupons = pgTable(
  'coupons',
  {
    id: id(),
    schoolId: schoolRef(),
    code: text().notNull(),
    discountPercent: integer(),
    discountAmount: integer(),
    active: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [
    index('coupons_school_id_idx').on(t.schoolId, t.id),
    uniqueIndex('coupons_school_id_code_key').on(t.schoolId, t.code),
    check('coupons_discount_percent_range', sql`${t.discountPercent} between 0 and 100`),
    check('coupons_discount_amount_non_negative', sql`${t.discountAmount} >= 0`),
  ],
);

/** A single-use token of a coupon. */
export const couponTokens = pgTable(
  'coupon_tokens',
  {
    id: id(),
    schoolId: schoolRef(),
    couponId: belongsTo(() => coupons.id),
    token: text().notNull(),
    usedAt: tstz(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('coupon_tokens_school_id_token_key').on(t.schoolId, t.token),
    index('coupon_tokens_coupon_id_idx').on(t.couponId),
  ],
);

/**
 * A school's account at a payment gateway. The secret key is stored encrypted and never returned
 * by the API; only its last characters (the hint) are shown.
 */
export const gatewayCredentials = pgTable(
  'gateway_credentials',
  {
    id: id(),
    schoolId: schoolRef(),
    gateway: text().notNull(),
    name: text(),
    environment: gatewayEnvironment().notNull().default('sandbox'),
    publicKey: text(),
    secretKeyCiphertext: text(),
    secretKeyHint: text(),
    ...timestamps,
  },
  (t) => [index('gateway_credentials_school_id_idx').on(t.schoolId, t.id)],
);

export const orders = pgTable(
  'orders',
  {
    id: id(),
    schoolId: schoolRef(),
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
    nextInvoiceAt: tstz(),
    canceledAt: tstz(),
    /** External identifier. */
    uuid: text(),
    status: orderStatus().notNull().default('initiated'),
    gatewayReference: text(),
    response: text(),
    message: text(),
    test: boolean().notNull().default(false),
    success: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('orders_school_id_idx').on(t.schoolId, t.id),
    index('orders_student_id_idx').on(t.studentId),
    index('orders_gateway_credential_id_idx').on(t.gatewayCredentialId),
    index('orders_coupon_id_idx').on(t.couponId),
    uniqueIndex('orders_school_id_uuid_key').on(t.schoolId, t.uuid),
    check('orders_kind_range', sql`${t.kind} between 0 and 3`),
    check('orders_period_range', sql`${t.period} between 0 and 4`),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: id(),
    schoolId: schoolRef(),
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
    ...timestamps,
  },
  (t) => [
    index('order_items_order_id_idx').on(t.orderId),
    index('order_items_payment_option_id_idx').on(t.paymentOptionId),
    index('order_items_coupon_token_id_idx').on(t.couponTokenId),
    index('order_items_school_id_idx').on(t.schoolId),
    check('order_items_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    schoolId: schoolRef(),
    orderId: belongsTo(() => orders.id),
    amount: integer().notNull(),
    occurrence: integer().notNull(),
    status: invoiceStatus().notNull().default('unsent'),
    uuid: text(),
    nextChargeAt: tstz(),
    ...timestamps,
  },
  (t) => [
    index('invoices_order_id_occurrence_idx').on(t.orderId, t.occurrence),
    index('invoices_school_id_idx').on(t.schoolId),
    uniqueIndex('invoices_school_id_uuid_key').on(t.schoolId, t.uuid),
  ],
);

export const payments = pgTable(
  'payments',
  {
    id: id(),
    schoolId: schoolRef(),
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
    ...timestamps,
  },
  (t) => [
    index('payments_invoice_id_idx').on(t.invoiceId),
    index('payments_school_id_idx').on(t.schoolId),
    uniqueIndex('payments_school_id_uuid_key').on(t.schoolId, t.uuid),
    check('payments_kind_range', sql`${t.kind} between 0 and 3`),
    check('payments_installments_positive', sql`${t.installments} > 0`),
  ],
);

export type PaymentOptionRow = typeof paymentOptions.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;
export type CouponTokenRow = typeof couponTokens.$inferSelect;
export type GatewayCredentialRow = typeof gatewayCredentials.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
