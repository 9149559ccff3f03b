import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { CREATE_REGISTRATION, enrollmentGraphqlFixtures, expectCode } from '../support/enrollments.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { dataOf, graphql } from '../support/graphql.js';
import { twoSchools } from '../support/world.js';

// GraphQL face of Registrations: registration, registrations and createRegistration. Fixtures:
// test/support/enrollments.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('GraphQL Enrolling School', 'GraphQL Other School', (w) => ({ service, school, other } = w));
const { newStudent, student, product, enroll, expectNoWrite } = enrollmentGraphqlFixtures(world);

describe('registrations', () => {
  it('given a student of the school, when createRegistration, then the registration is returned and stored', async () => {
    const studentId = await newStudent(school);
    const data = await dataOf(school.admin, CREATE_REGISTRATION, { input: { studentId } });
    expect(data.createRegistration.errors).toEqual([]);
    const r = data.createRegistration.registration;
    expect(r).toMatchObject({ schoolId: String(school.id), studentId, status: 'active' });
    const [row] = await service.db.select().from(registrations).where(eq(registrations.id, Number(r.id)));
    expect(row).toMatchObject({ schoolId: school.id, studentId: Number(studentId) });
  });

  it('given a student already registered, when createRegistration again, then taken on studentId and nothing written', async () => {
    const p = await student(school);
    const res = await expectNoWrite(() => school.admin.graphql(CREATE_REGISTRATION, { input: { studentId: p.studentId } }));
    expect(res.data.createRegistration).toEqual({ registration: null, errors: [{ field: ['studentId'], code: 'taken', message: 'has already been taken' }] });
  });

  it("given no student, another school's student or a collaborator, when createRegistration, then a UserError and nothing written", async () => {
    const foreign = await newStudent(other);
    const blank = await expectNoWrite(() => school.admin.graphql(CREATE_REGISTRATION, { input: {} }));
    expect(blank.data.createRegistration.errors).toEqual([{ field: ['studentId'], code: 'blank', message: "can't be blank" }]);
    for (const studentId of [foreign, String(school.adminId), 'abc']) {
      const res = await expectNoWrite(() => school.admin.graphql(CREATE_REGISTRATION, { input: { studentId } }));
      expect(res.data.createRegistration.errors).toEqual([expect.objectContaining({ field: ['studentId'], code: 'not_found' })]);
    }
  });

  it('given a student credential, when createRegistration, then FORBIDDEN', async () => {
    const p = await student(school);
    expectCode(await expectNoWrite(() => p.client.graphql(CREATE_REGISTRATION, { input: { studentId: p.studentId } })), 'FORBIDDEN');
  });

  it('given registrations, when querying registration(id) and registrations(studentId), then they resolve with student and enrollments', async () => {
    const p = await student(school);
    const productId = await product(school);
    const e = await enroll(p, productId);
    const data = await dataOf(
      school.admin,
      graphql(`query ($id: ID!, $studentId: ID) {
        registration(id: $id) { id studentId student { id fullName } enrollments { totalCount nodes { id } } }
        registrations(studentId: $studentId) { totalCount nodes { id } }
      }`),
      { id: p.registrationId, studentId: p.studentId },
    );
    expect(data.registration).toMatchObject({ id: p.registrationId, studentId: p.studentId, student: { id: p.studentId }, enrollments: { totalCount: 1, nodes: [{ id: e.id }] } });
    expect(data.registrations).toEqual({ totalCount: 1, nodes: [{ id: p.registrationId }] });
  });

  it("given a student credential, when reading registrations, then only its own; another's is NOT_FOUND", async () => {
    const p = await student(school);
    const q = await student(school);
    const own = await dataOf(p.client, graphql('{ registrations { nodes { id } } }'));
    expect(own.registrations.nodes).toEqual([{ id: p.registrationId }]);
    expectCode(await p.client.graphql('query ($id: ID!) { registration(id: $id) { id } }', { id: q.registrationId }), 'NOT_FOUND');
    expectCode(await other.admin.graphql('query ($id: ID!) { registration(id: $id) { id } }', { id: p.registrationId }), 'NOT_FOUND');
  });
});
