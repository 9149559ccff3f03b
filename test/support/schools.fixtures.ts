import { eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { schools } from '../../src/db/school.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { expect } from 'vitest';
import { graphql } from './graphql.js';
import { countRows, unique } from './rows.js';
import type { Client, Service, TestSchool } from './service.js';

/**
 * The schools family's fixtures, for its REST and GraphQL tests: users straight into the table (their
 * API is another family's) and the reads the tests check. `service` is read when a fixture runs.
 */
export function schoolFixtures(service: () => Service) {
  async function person(schoolId: number, type: 'Student' | 'Collaborator' | 'Admin', email: string) {
    const [row] = await service().db.insert(users).values({ schoolId, type, fullName: `${type} ${email}`, email }).returning();
    return row;
  }
  return {
    person,
    /** The school's row (a GraphQL ID or a REST id). */
    async schoolRow(id: number | string) {
      const [row] = await service().db.select().from(schools).where(eq(schools.id, Number(id)));
      return row;
    },
    countRows: (table: PgTable, where?: SQL) => countRows(service(), table, where),
    /** A credential of a new student of the school. */
    async studentOf(school: TestSchool): Promise<Client> {
      const s = await person(school.id, 'Student', `${unique('student')}@example.com`);
      return service().token('student', school.id, s.id);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The GraphQL face's operations and error checks.

export const SCHOOL_FIELDS = graphql(`fragment SchoolFields on School {
  id name subdomain status organizationId domains email phone cnpj crmToken adsAdvId adsPixId
  videoKey videoPlayerKey videoAccessToken videoProjectId termsOfUse
  socialLink1 socialLink2 socialLink3 socialLink4 socialLink5 socialLink6 socialLink7
  site address companyName seoTitle seoDescription logo metadata metaAvailableLocales createdAt updatedAt
}`);

export const SCHOOL = graphql(`query School($id: ID!) { school(id: $id) { ...SchoolFields organization { id name } } }`, [SCHOOL_FIELDS]);
export const SCHOOLS = graphql(`query Schools($email: EmailAddress, $type: UserType, $first: Int, $after: String, $page: Int, $perPage: Int) {
  schools(email: $email, type: $type, first: $first, after: $after, page: $page, perPage: $perPage) {
    totalCount
    nodes { id name }
    edges { cursor node { id } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`);
export const CREATE = graphql(
  `mutation Create($input: CreateSchoolInput!) {
    createSchool(input: $input) { school { ...SchoolFields } errors { field code message } }
  }`,
  [SCHOOL_FIELDS],
);
export const UPDATE = graphql(
  `mutation Update($id: ID!, $input: UpdateSchoolInput!) {
    updateSchool(id: $id, input: $input) { school { ...SchoolFields } errors { field code message } }
  }`,
  [SCHOOL_FIELDS],
);
export const DELETE = graphql(`mutation Delete($id: ID!) { deleteSchool(id: $id) { school { id name } errors { field code message } } }`);
export const WIZARD = graphql(`mutation Wizard($input: SchoolWizardInput!) {
  schoolWizard(input: $input) {
    school { id name subdomain status email organizationId }
    organization { id name }
    library { id }
    forum { id }
    admin { id fullName email credentials }
    errors { field code message }
  }
}`);

/** An error as the tests read it: a GraphQL error, or a UserError of a payload (no extensions). */
export interface ErrorLike {
  message: string;
  path?: readonly unknown[];
  extensions?: Record<string, unknown>;
}

/** No SQL, stack frames or file paths in any error, and no stacktrace extension. */
export function expectCleanErrors(errors: ErrorLike[] | undefined) {
  for (const e of errors ?? []) {
    expect(e.message).not.toMatch(/\bselect\b.*\bfrom\b|\binsert into\b|\bupdate\b.*\bset\b|\bat \S+ \(|node_modules|\.ts:\d+|\.js:\d+|violates|constraint/i);
    expect(e.extensions?.stacktrace).toBeUndefined();
    expect(e.extensions?.exception).toBeUndefined();
  }
}

/** A single execution error of this code, with no data for the field. */
export function expectExecutionError(res: { data?: Record<string, unknown> | null; errors?: (ErrorLike & { extensions: Record<string, unknown> })[] }, code: string, field: string) {
  expect(res.errors, JSON.stringify(res)).toHaveLength(1);
  expect(res.errors![0].extensions.code).toBe(code);
  expect(res.errors![0].path).toEqual([field]);
  expect(res.data?.[field] ?? null).toBeNull();
  expectCleanErrors(res.errors);
}
