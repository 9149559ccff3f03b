import { beforeAll, describe, expect, it } from 'vitest';
import { enrollmentGraphqlFixtures, expectCode, type GraphqlPerson as Person, NOW, UPDATE } from '../support/enrollments.fixtures.js';
import type { TestSchool } from '../support/service.js';
import { dataOf } from '../support/graphql.js';
import { twoSchools } from '../support/world.js';

// GraphQL face of Enrollments: updateEnrollment by id and by code. Fixtures: test/support/enrollments.fixtures.ts.

let school: TestSchool;
let other: TestSchool;
const world = twoSchools('GraphQL Enrolling School', 'GraphQL Other School', (w) => ({ school, other } = w));
const { student, catalogue, enroll, expectNoWrite } = enrollmentGraphqlFixtures(world);

describe('updateEnrollment', () => {
  let p: Person;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  beforeAll(async () => {
    p = await student(school);
    cat = await catalogue(school);
  });

  it('given an id, when updating, then the changes apply and activation sets activatedAt', async () => {
    const e = await enroll(p, cat.productId);
    const data = await dataOf(school.admin, UPDATE, { id: e.id, input: { status: 'active', courseClassIds: [cat.classIds[1]] } });
    expect(data.updateEnrollment.errors).toEqual([]);
    expect(data.updateEnrollment.enrollment).toMatchObject({ id: e.id, status: 'active', activatedAt: NOW, courseClassIds: [cat.classIds[1]] });
  });

  it('given a code, when updating, then that enrollment changes', async () => {
    const e = await enroll(p, cat.productId, { code: 'GQL-UPD' });
    const data = await dataOf(school.admin, UPDATE, { code: 'GQL-UPD', input: { status: 'canceled' } });
    expect(data.updateEnrollment.enrollment).toMatchObject({ id: e.id, status: 'canceled' });
  });

  it('given a change that makes it invalid, when updating, then errors and no change', async () => {
    const e = await enroll(p, cat.productId);
    const res = await expectNoWrite(() => school.admin.graphql(UPDATE, { id: e.id, input: { maxAttendanceType: 'attempts', timeSpent: 9 } }));
    expect(res.data.updateEnrollment).toEqual({
      enrollment: null,
      errors: [
        { field: ['maxAttendanceLength'], code: 'blank', message: "can't be blank when max_attendance_type is attempts" },
        { field: ['timeSpent'], code: 'forbidden', message: 'can be written only with an app credential' },
      ],
    });
  });

  it("given another school's enrollment, when updating, then NOT_FOUND and untouched", async () => {
    const e = await enroll(p, cat.productId);
    expectCode(await expectNoWrite(() => other.admin.graphql(UPDATE, { id: e.id, input: { status: 'canceled' } })), 'NOT_FOUND');
  });

  it('given both id and code, when updating, then BAD_USER_INPUT', async () => {
    const e = await enroll(p, cat.productId, { code: 'GQL-BOTH' });
    expectCode(await expectNoWrite(() => school.admin.graphql(UPDATE, { id: e.id, code: 'GQL-BOTH', input: { status: 'canceled' } })), 'BAD_USER_INPUT');
  });
});
