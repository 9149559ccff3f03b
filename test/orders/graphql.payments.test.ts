import { describe, expect, it } from 'vitest';
import { saleFixtures, type SaleRefs } from '../support/orders.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// The GraphQL face of selling: the same operations as REST (test/orders/rest.*), refusals as
// UserErrors of the payload (not execution errors), another school's payment NOT_FOUND.

const CREATE_ORDER = `mutation ($input: OrderInput!) {
  createOrder(input: $input) { order { id total amountToPay status invoices { id status amount } items { amountToPay couponToken { id usedAt } } } errors { field code message } }
}`;
const CREATE_PAYMENT = `mutation ($invoiceId: ID!, $input: PaymentInput!) { createPayment(invoiceId: $invoiceId, input: $input) { payment { id status amount kind } errors { field code message } } }`;
const CONFIRM = `mutation ($id: ID!) { confirmPayment(id: $id) { payment { id status } errors { field code message } } }`;
const REFUND = `mutation ($id: ID!, $input: RefundInput!) { refundPayment(id: $id, input: $input) { payment { id status refundedAmount refundReason } errors { field code message } } }`;
const ORDER = `query ($id: ID!) { order(id: $id) { status confirmedAt canceledAt invoices { status payments { status } } } }`;

describe('selling over GraphQL', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;
  let f: SaleRefs;
  const fx = saleFixtures(() => service);

  twoSchools('Alpha GraphQL Sale', 'Beta GraphQL Sale', async (w) => {
    ({ service, school: a, other: b } = w);
    f = await fx.sale(a.id);
  });

  it('prices, pays, confirms and refunds; refusals are UserErrors naming the field', async () => {
    const mismatch = await a.admin.graphql(CREATE_ORDER, {
      input: { studentId: String(f.student.id), itemsAttributes: [{ paymentOptionId: String(f.option.id), couponTokenId: String(f.tokens[0].id), amountToPay: 49700 }] },
    });
    expect(mismatch.errors).toBeUndefined();
    expect(mismatch.data.createOrder).toEqual({
      order: null,
      errors: [{ field: ['itemsAttributes', '0', 'amountToPay'], code: 'price_mismatch', message: 'must be 34790 (computed from the payment option, quantity and coupon)' }],
    });

    const created = await a.admin.graphql(CREATE_ORDER, {
      input: { studentId: String(f.student.id), itemsAttributes: [{ paymentOptionId: String(f.option.id), couponTokenId: String(f.tokens[0].id) }] },
    });
    const order = created.data.createOrder.order;
    expect(order).toMatchObject({ total: 49700, amountToPay: 34790, status: 'initiated', invoices: [{ status: 'open', amount: 34790 }] });
    expect(order.items[0]).toEqual({ amountToPay: 34790, couponToken: { id: String(f.tokens[0].id), usedAt: service.clock.now().toISOString() } });

    const pix = await a.admin.graphql(CREATE_PAYMENT, { invoiceId: order.invoices[0].id, input: { kind: 'pix' } });
    expect(pix.data.createPayment).toMatchObject({ payment: { status: 'initiated', amount: 34790, kind: 2 }, errors: [] });
    const paymentId = pix.data.createPayment.payment.id;

    const early = await a.admin.graphql(REFUND, { id: paymentId, input: { reason: 'too early' } });
    expect(early.data.refundPayment).toEqual({ payment: null, errors: [{ field: ['status'], code: 'invalid_transition', message: 'cannot change from initiated to refunded' }] });

    expect((await a.admin.graphql(CONFIRM, { id: paymentId })).data.confirmPayment).toEqual({ payment: { id: paymentId, status: 'confirmed' }, errors: [] });
    expect((await a.admin.graphql(ORDER, { id: order.id })).data.order).toMatchObject({ status: 'confirmed', invoices: [{ status: 'paid', payments: [{ status: 'confirmed' }] }] });

    const foreign = await b.admin.graphql(REFUND, { id: paymentId, input: { reason: 'not mine' } });
    expect(foreign.errors?.[0].extensions.code).toBe('NOT_FOUND');

    const refunded = await a.admin.graphql(REFUND, { id: paymentId, input: { reason: 'duplicate charge' } });
    expect(refunded.data.refundPayment).toEqual({ payment: { id: paymentId, status: 'refunded', refundedAmount: 34790, refundReason: 'duplicate charge' }, errors: [] });
    expect((await a.admin.graphql(ORDER, { id: order.id })).data.order).toMatchObject({
      status: 'canceled',
      canceledAt: service.clock.now().toISOString(),
      invoices: [{ status: 'unpaid', payments: [{ status: 'refunded' }] }],
    });
  });
});
