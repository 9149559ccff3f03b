/**
 * The benchmark's scenarios: one request each (or a fresh one per call for the writes), sent the
 * same way to the service and to the bare handler (test/bench/bare.ts), which recognises the
 * GraphQL documents below by their text. The GraphQL reads (S1, S2, S3, S5) have a twin for
 * PostGraphile v5 (test/bench/peer.ts): the same rows asked through its schema of the same tables
 * (amber's inflection: a column `id` is `rowId`; relations through the link tables; the rows
 * ordered as the service orders them), and a reading of each reply into plain rows that must be
 * equal for the three targets (run.ts checks before measuring).
 */
import { randomUUID } from 'node:crypto';
import type { Fixture } from './seed.js';

export const S1 = '{ __typename }';
export const S2 = 'query Course($id: ID!) { course(id: $id) { id schoolId name description imageUrl duration code ready createdAt updatedAt } }';
export const S3 =
  'query Tree($id: ID!) { school(id: $id) { id name schoolProducts(first: 10) { nodes { id title courses { id name modules { id name lessons { id title type position } } } } } } }';
export const S5 =
  '{ enrollments(first: 50) { nodes { id status createdAt student { id fullName email } schoolProduct { id title } } } }';

/** PostGraphile's twins (its schema of the same tables): S1 is the same document. */
export const PG_S2 =
  'query Course($id: Int!, $schoolId: Int!) { course(rowId: $id, schoolId: $schoolId) { rowId schoolId name description imageUrl duration code ready createdAt updatedAt } }';
export const PG_S3 =
  'query Tree($id: Int!) { school(rowId: $id) { rowId name schoolProducts(first: 10, orderBy: PRIMARY_KEY_ASC) { nodes { rowId title ' +
  'schoolProductCoursesBySchoolIdAndSchoolProductId(orderBy: [POSITION_ASC, COURSE_ID_ASC]) { nodes { schoolCourse { rowId name ' +
  'courseModuleLinksBySchoolIdAndCourseId(orderBy: [POSITION_ASC, COURSE_MODULE_ID_ASC]) { nodes { schoolCourseModule { rowId name ' +
  'lessonsBySchoolIdAndCourseModuleId(orderBy: [POSITION_ASC, PRIMARY_KEY_ASC]) { nodes { rowId title type position } } } } } } } } } } } }';
export const PG_S5 =
  'query Enrollments($schoolId: Int!) { enrollments(first: 50, condition: { schoolId: $schoolId }, orderBy: PRIMARY_KEY_ASC) { nodes { rowId status createdAt schoolStudent { rowId fullName email } schoolSchoolProduct { rowId title } } } }';

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
  /**
   * PostGraphile's twin (GraphQL reads only): its request, and the rows a reply carries, read from
   * the service's (and the bare handler's) reply and from PostGraphile's, to be equal.
   */
  twin?: { next(): Request; rows(reply: any): unknown; peerRows(reply: any): unknown };
}

const id = (v: string | number) => Number(v);
/** A timestamp as milliseconds: the service writes `…:21.154Z`, PostGraphile `…:21.154350+00:00`. */
const ms = (v: string) => Math.floor(Date.parse(v));

const graphql = (query: string, variables?: Record<string, unknown>) => JSON.stringify(variables ? { query, variables } : { query });

export function scenarios(f: Fixture): Scenario[] {
  let registration = 0;
  let order = 0;
  const run = randomUUID().slice(0, 8);
  const at = new Date(Date.UTC(2024, 2, 1, 10)).toISOString();
  return [
    {
      key: 'S1',
      title: 'S1 `{ __typename }`',
      status: 200,
      graphql: true,
      next: () => ({ method: 'POST', path: '/graphql', body: graphql(S1), token: 'read' }),
      twin: { next: () => ({ method: 'POST', path: '/graphql', body: graphql(S1), token: 'read' }), rows: (r) => r.data, peerRows: (r) => r.data },
    },
    {
      key: 'S2',
      title: 'S2 one course by id (GraphQL)',
      status: 200,
      graphql: true,
      next: () => ({ method: 'POST', path: '/graphql', body: graphql(S2, { id: String(f.courseId) }), token: 'read' }),
      twin: {
        next: () => ({ method: 'POST', path: '/graphql', body: graphql(PG_S2, { id: f.courseId, schoolId: f.readSchoolId }), token: 'read' }),
        rows: ({ data: { course: c } }) => [id(c.id), id(c.schoolId), c.name, c.description, c.imageUrl, c.duration, c.code, c.ready, ms(c.createdAt), ms(c.updatedAt)],
        peerRows: ({ data: { course: c } }) => [c.rowId, c.schoolId, c.name, c.description, c.imageUrl, c.duration, c.code, c.ready, ms(c.createdAt), ms(c.updatedAt)],
      },
    },
    { key: 'S2-REST', title: 'S2 REST `GET /courses/:id`', status: 200, graphql: false, next: () => ({ method: 'GET', path: `/courses/${f.courseId}`, token: 'read' }) },
    {
      key: 'S3',
      title: 'S3 school → 10 products → courses → modules → 1,000 lessons',
      status: 200,
      graphql: true,
      next: () => ({ method: 'POST', path: '/graphql', body: graphql(S3, { id: String(f.readSchoolId) }), token: 'read' }),
      twin: {
        next: () => ({ method: 'POST', path: '/graphql', body: graphql(PG_S3, { id: f.readSchoolId }), token: 'read' }),
        // The tree as nested [id, name, children]: products, their courses, modules and lessons.
        rows: ({ data: { school: s } }: any) => [
          id(s.id),
          s.name,
          s.schoolProducts.nodes.map((p: any) => [
            id(p.id),
            p.title,
            p.courses.map((c: any) => [id(c.id), c.name, c.modules.map((m: any) => [id(m.id), m.name, m.lessons.map((l: any) => [id(l.id), l.title, l.type, l.position])])]),
          ]),
        ],
        peerRows: ({ data: { school: s } }: any) => [
          s.rowId,
          s.name,
          s.schoolProducts.nodes.map((p: any) => [
            p.rowId,
            p.title,
            p.schoolProductCoursesBySchoolIdAndSchoolProductId.nodes.map(({ schoolCourse: c }: any) => [
              c.rowId,
              c.name,
              c.courseModuleLinksBySchoolIdAndCourseId.nodes.map(({ schoolCourseModule: m }: any) => [
                m.rowId,
                m.name,
                m.lessonsBySchoolIdAndCourseModuleId.nodes.map((l: any) => [l.rowId, l.title, l.type, l.position]),
              ]),
            ]),
          ]),
        ],
      },
    },
    {
      key: 'S4-REST',
      title: 'S4 REST `GET /school_products/:id/enrollments?page=3&per_page=50`',
      status: 200,
      graphql: false,
      next: () => ({ method: 'GET', path: `/school_products/${f.enrollmentsProductId}/enrollments?page=3&per_page=50`, token: 'read' }),
    },
    {
      key: 'S5',
      title: 'S5 50 enrollments with their student and product',
      status: 200,
      graphql: true,
      next: () => ({ method: 'POST', path: '/graphql', body: graphql(S5), token: 'read' }),
      twin: {
        next: () => ({ method: 'POST', path: '/graphql', body: graphql(PG_S5, { schoolId: f.readSchoolId }), token: 'read' }),
        rows: ({ data }: any) =>
          data.enrollments.nodes.map((e: any) => [id(e.id), e.status, ms(e.createdAt), id(e.student.id), e.student.fullName, e.student.email, id(e.schoolProduct.id), e.schoolProduct.title]),
        peerRows: ({ data }: any) =>
          data.enrollments.nodes.map((e: any) => [
            e.rowId,
            e.status,
            ms(e.createdAt),
            e.schoolStudent.rowId,
            e.schoolStudent.fullName,
            e.schoolStudent.email,
            e.schoolSchoolProduct.rowId,
            e.schoolSchoolProduct.title,
          ]),
      },
    },
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
        // Three unused tokens per order (the pool wraps around past 3 × BENCH_POOL orders, then the import refuses them).
        const first = f.couponTokenPool.first + ((3 * (order - 1)) % f.couponTokenPool.count);
        const [ta, tb, tc] = [first, first + 1, first + 2];
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
