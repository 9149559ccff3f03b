import { inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { enrollments, registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { enrollmentGraphqlFixtures, expectCode, LATER } from '../support/enrollments.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Bulk onboarding, GraphQL face: createStudents. Invalid input is payload data naming the item
// (["students", "<i>", ...]); forbidden and a batch too large are execution errors.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('GraphQL Onboarding School', 'GraphQL Other School', (w) => ({ service, school, other } = w));
const { student, catalogue, expectNoWrite } = enrollmentGraphqlFixtures(world);

const BATCH = `mutation ($inputs: [StudentBatchInput!]!) {
  createStudents(inputs: $inputs) { students { id schoolId fullName email } errors { field code message } }
}`;

let serial = 0;
const person = (fields: Record<string, unknown> = {}) => ({ fullName: `Person ${++serial}`, email: `gql-bulk${serial}@example.com`, ...fields });
const enrollIn = (schoolProductId: string) => ({ schoolProductId, maxAttendanceType: 'indeterminate', availableUntil: LATER });

describe('createStudents', () => {
  let cat: Awaited<ReturnType<typeof catalogue>>;
  beforeAll(async () => {
    cat = await catalogue(school);
  });

  it('given 1,000 people, when creating, then all are created, registered and enrolled, in a handful of statements', async () => {
    const inputs = Array.from({ length: 1000 }, () => person({ enrollments: [enrollIn(cat.productId)] }));
    let res: any;
    const statements = await service.countStatements(async () => {
      res = await school.admin.graphql(BATCH, { inputs });
    });
    expect(res.data.createStudents.errors).toEqual([]);
    const made = res.data.createStudents.students;
    expect(made.map((s: any) => s.email)).toEqual(inputs.map((p) => p.email));
    const ids = made.map((s: any) => Number(s.id));
    expect(await service.db.select().from(registrations).where(inArray(registrations.studentId, ids))).toHaveLength(1000);
    expect(await service.db.select().from(enrollments).where(inArray(enrollments.studentId, ids))).toHaveLength(1000);
    expect(statements, String(statements)).toBeLessThan(25);
  }, 120_000);

  it('given problems in several items, when creating, then every one named by index, and nothing written', async () => {
    const foreign = await catalogue(other);
    const twin = person();
    const res = await expectNoWrite(() =>
      school.admin.graphql(BATCH, { inputs: [twin, person({ fullName: '' }), { ...person(), email: twin.email }, person({ locale: '!!' })] }),
    );
    expect(res.data.createStudents.students).toBeNull();
    expect(res.data.createStudents.errors.map((e: any) => [e.field.join('.'), e.code])).toEqual([
      ['students.1.fullName', 'blank'],
      ['students.2.email', 'duplicate'],
      ['students.3.locale', 'invalid'],
    ]);
    // Enrollment problems come once every person is valid, still naming the item, still writing nothing.
    const bad = await expectNoWrite(() => school.admin.graphql(BATCH, { inputs: [person({ enrollments: [enrollIn(cat.productId), enrollIn(foreign.productId)] })] }));
    expect(bad.data.createStudents.errors.map((e: any) => [e.field.join('.'), e.code])).toEqual([['students.0.enrollments.1.schoolProductId', 'not_found']]);
  });

  it('given an e-mail the school has, when creating, then taken naming the item', async () => {
    const existing = person();
    expect((await school.admin.graphql(BATCH, { inputs: [existing] })).data.createStudents.errors).toEqual([]);
    const res = await expectNoWrite(() => school.admin.graphql(BATCH, { inputs: [person(), { ...existing, email: existing.email.toUpperCase() }] }));
    expect(res.data.createStudents.errors).toEqual([{ field: ['students', '1', 'email'], code: 'taken', message: 'has already been taken' }]);
  });

  it('given an empty list or more than 1,000, when creating, then an execution error and nothing written', async () => {
    expectCode(await expectNoWrite(() => school.admin.graphql(BATCH, { inputs: [] })), 'BAD_USER_INPUT');
    const res = await expectNoWrite(() => school.admin.graphql(BATCH, { inputs: Array.from({ length: 1001 }, () => person()) }));
    expectCode(res, 'PAYLOAD_TOO_LARGE');
    expect(res.errors![0].extensions.field).toEqual(['students']);
  }, 60_000);

  it('given dryRun, when creating, then the students as they would be, and nothing written', async () => {
    const p = person({ enrollments: [enrollIn(cat.productId)] });
    const res = await expectNoWrite(() => school.admin.graphql(`mutation ($inputs: [StudentBatchInput!]!) {
      createStudents(inputs: $inputs, dryRun: true) { students { email } errors { field code } } }`, { inputs: [p] }));
    expect(res.data.createStudents).toEqual({ students: [{ email: p.email }], errors: [] });
  });

  it('given a student credential, when creating, then FORBIDDEN', async () => {
    const p = await student(school);
    expectCode(await expectNoWrite(() => p.client.graphql(BATCH, { inputs: [person()] })), 'FORBIDDEN');
  });
});
