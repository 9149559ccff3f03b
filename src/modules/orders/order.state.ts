import { orderStatus } from './order.table.js';

export type OrderStatus = (typeof orderStatus.enumValues)[number];

/**
 * The order lifecycle. The spec names the states and the cancellation (from any state); the other
 * transitions are this service's decision:
 *
 *   initiated ──> processing | no_wait_processing | confirmed | canceled
 *   processing, no_wait_processing ──> confirmed | canceled
 *   confirmed ──> canceled            (a refund)
 *   canceled: final
 *
 * A confirmed order never goes back to initiated or processing; a canceled one never changes
 * again (cancelling it again is an `invalid_transition`). Giving the status an order already has
 * is no transition at all (clients send a fetched order back whole).
 */
export const orderTransitions: Record<OrderStatus, readonly OrderStatus[]> = {
  initiated: ['processing', 'no_wait_processing', 'confirmed', 'canceled'],
  processing: ['confirmed', 'canceled'],
  no_wait_processing: ['confirmed', 'canceled'],
  confirmed: ['canceled'],
  canceled: [],
};

export function canMoveOrder(from: OrderStatus, to: OrderStatus): boolean {
  return orderTransitions[from].includes(to);
}

/** The statuses an order may be created with (through createOrder; an import may give any). */
export const ORDER_CREATE_STATUSES: readonly OrderStatus[] = ['initiated', ...orderTransitions.initiated.filter((s) => s !== 'canceled')];

/**
 * Kinds (the spec gives only the ranges; the meanings are this service's, documented on the types):
 * order kind 0..3 = common, subscription, installment plan, free; order period 0..4 = none,
 * monthly, quarterly, semiannual, annual; payment kind 0..3 (typed String by the spec) =
 * credit card, boleto, pix, external (paid outside the gateway).
 */
export const PAYMENT_KINDS = ['credit_card', 'boleto', 'pix', 'external'] as const;
export const ORDER_KIND_COMMON = 0;
export const PAYMENT_KIND_CREDIT_CARD = 0;
