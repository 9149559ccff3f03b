/**
 * The benchmark's scenarios: one request each (or a fresh one per call for the writes), sent the
 * same way to the service and to the bare handler (test/bench/bare.ts), which recognises the
 * GraphQL documents below by their text.
 */
import { randomUUID } from 'node:crypto';
import type { Fixture } from './seed.js';

export const S1 = '{ __typename }';
export const S2 = 'query Course($id: ID!) { course(id: $id) { id schoolId name description imageUrl duration code ready createdAt updatedAt } }';
export const S3 =
  'query Tree($id: ID!) { school(id: $id) { id name schoolProducts(first: 10) { nodes { id title courses { id name modules { id name lessons { id title type position } } } } } } }';
export const S5 =
  '{ enrollments(first: 50) { nodes { id status createdAt student { id fullName email } schoolProduct { id title } } } }';
export const ENROLL =
  'mutation Enroll($input: EnrollmentInput!) { createEnrollment(input: $input) { enrollment { id schoolId registrationId studentId schoolProductId status unlimited createdAt } errors { field code message } } }';

export interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The credential the request carries (a key of Tokens). */
  token: keyof Tokens;
}

export interface Tokens {
  /** An admin credential of the read school (S1–S5). */
  read: string;
  /** An admin credential of the school createEnrollment writes to. */
  write: string;
  /** An admin credential of the school orders are imported into. */
  import: string;
}

export interface Scenario {
  key: string;
  title: string;
  /** The status a success answers with. */
  status: number;
  /** A GraphQL reply is a success only without errors (nor payload errors). */
  graphql: boolean;
  /** A write: every request its own input (a fresh registration, a fresh order uuid). */
  fresh?: true;
  /** The request; called once per request sent (writes make a fresh one each time). */
  next(): Request;
}

const graphql = (query: string, variables?: Record<string, unknown>) => JSON.stringify(variables ? { query, variables } : { query });

export function scenarios(f: Fixture): Scenario[] {
  let registration = 0;
  let order = 0;
  const run = randomUUID().slice(0, 8);
  const at = new Date(Date.UTC(2024, 2, 1, 10)).toISOString();
  return [
    { key: 'S1', title: 'S1 `{ __typename }`', status: 200, graphql: true, next: () => ({ method: 'POST', path: '/graphql', body: graphql(S1), token: 'read' }) },
    {
      key: 'S2',
      title: 'S2 one course by id (GraphQL)',
      status: 200,
      graphql: true,
      next: () => ({ method: 'POST', path: '/graphql', body: graphql(S2, { id: String(f.courseId) }), token: 'read' }),
    },
    { key: 'S2-REST', title: 'S2 REST `GET /courses/:id`', status: 200, graphql: false, next: () => ({ method: 'GET', path: `/courses/${f.courseId}`, token: 'read' }) },
    {
      key: 'S3',
      title: 'S3 school → 10 products → courses → modules → 1,000 lessons',
      status: 200,
      graphql: true,
      next: () => ({ method: 'POST', path: '/graphql', body: graphql(S3, { id: String(f.readSchoolId) }), token: 'read' }),
    },
    {
      key: 'S4-REST',
      title: 'S4 REST `GET /school_products/:id/enrollments?page=3&per_page=50`',
      status: 200,
      graphql: false,
      next: () => ({ method: 'GET', path: `/school_products/${f.enrollmentsProductId}/enrollments?page=3&per_page=50`, token: 'read' }),
    },
    { key: 'S5', title: 'S5 50 enrollments with their student and product', status: 200, graphql: true, next: () => ({ method: 'POST', path: '/graphql', body: graphql(S5), token: 'read' }) },
    {
      key: 'W1',
      title: 'W1 `createEnrollment` (a fresh registration each)',
      status: 200,
      graphql: true,
      fresh: true,
      next: () => {
        // The pool wraps around when a run sends more requests than it holds: still a valid enrollment.
        const id = f.registrationPool.first + (registration++ % f.registrationPool.count);
        return {
          method: 'POST',
          path: '/graphql',
          body: graphql(ENROLL, { input: { registrationId: String(id), schoolProductId: String(f.writeProductId), maxAttendanceType: 'indeterminate', unlimited: true } }),
          token: 'write',
        };
      },
    },
    {
      key: 'W2',
      title: 'W2 REST `POST /orders/import` (3 items, 2 invoices, 2 payments)',
      status: 201,
      graphql: false,
      fresh: true,
      next: () => {
        const n = `${run}-${++order}`;
        const s = f.importSchoolId;
        const [a, b, c] = f.paymentOptionIds;
        const [ta, tb, tc] = f.couponTokenIds;
        const body = {
          order: {
            school_id: s,
            student_id: f.importStudentId,
            gateway_credential_id: f.gatewayCredentialId,
            uuid: `order-${n}`,
            kind: 0,
            period: 0,
            status: 'confirmed',
            amount_to_pay: 60000,
            total: 60000,
            created_at: at,
            gateway_reference: `or_${n}`,
            test: true,
            success: true,
            items_attributes: [
              { school_id: s, payment_option_id: a, coupon_token_id: ta, quantity: 1, total: 10000, amount_to_pay: 10000 },
              { school_id: s, payment_option_id: b, coupon_token_id: tb, quantity: 1, total: 20000, amount_to_pay: 20000 },
              { school_id: s, payment_option_id: c, coupon_token_id: tc, quantity: 1, total: 30000, amount_to_pay: 30000 },
            ],
            invoices_attributes: [
              {
                school_id: s,
                amount: 30000,
                occurrence: 1,
                status: 'paid',
                uuid: `invoice-${n}-1`,
                payments_attributes: [{ school_id: s, kind: 0, status: 'confirmed', installments: 1, amount: 30000, uuid: `payment-${n}-1`, success: true }],
              },
              {
                school_id: s,
                amount: 30000,
                occurrence: 2,
                status: 'paid',
                uuid: `invoice-${n}-2`,
                payments_attributes: [{ school_id: s, kind: 0, status: 'confirmed', installments: 1, amount: 30000, uuid: `payment-${n}-2`, success: true }],
              },
            ],
          },
        };
        return { method: 'POST', path: '/orders/import', body: JSON.stringify(body), token: 'import' };
      },
    },
  ];
}

/** A reply that is not the work asked for (a GraphQL error, a payload error). */
export function failed(scenario: Scenario, status: number, body: string): boolean {
  if (status !== scenario.status) return true;
  if (!scenario.graphql) return false;
  // Payload errors are a list: `"errors":[]` when none. Top-level GraphQL errors are the same key.
  return body.includes('"errors":[{');
}
