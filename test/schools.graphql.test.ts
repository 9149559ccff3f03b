import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens } from '../src/auth/api-token.table.js';
import { forums } from '../src/modules/forums/forum.table.js';
import { libraries } from '../src/modules/library/library.table.js';
import { organizations, schools } from '../src/db/school.table.js';
import { schoolDomains, schoolStatusChanges } from '../src/modules/schools/school.table.js';
import { users } from '../src/modules/users/user.table.js';
import { type Service, startTwoSchools, type TestSchool } from './support/service.js';
import { graphql, type ReplyOf, type TadaDocumentNode } from './support/graphql.js';
import { unique } from './support/rows.js';
import { schoolFixtures } from './support/schools.fixtures.js';

/**
 * GraphQL face of the Schools family: school, schools, createSchool, updateSchool, deleteSchool,
 * schoolWizard. Invalid input is payload data (`errors`, resource null); not found, forbidden and
 * unauthenticated are execution errors with extensions.code. Conventions: /work/shared/DESIGN.md.
 */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

const SCHOOL_FIELDS = graphql(`fragment SchoolFields on School {
  id name subdomain status organizationId domains email phone cnpj crmToken adsAdvId adsPixId
  videoKey videoPlayerKey videoAccessToken videoProjectId termsOfUse
  socialLink1 socialLink2 socialLink3 socialLink4 socialLink5 socialLink6 socialLink7
  site address companyName seoTitle seoDescription logo metadata metaAvailableLocales createdAt updatedAt
}`);

const SCHOOL = graphql(`query School($id: ID!) { school(id: $id) { ...SchoolFields organization { id name } } }`, [SCHOOL_FIELDS]);
const SCHOOLS = graphql(`query Schools($email: EmailAddress, $type: UserType, $first: Int, $after: String, $page: Int, $perPage: Int) {
  schools(email: $email, type: $type, first: $first, after: $after, page: $page, perPage: $perPage) {
    totalCount
    nodes { id name }
    edges { cursor node { id } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`);
const CREATE = graphql(
  `mutation Create($input: CreateSchoolInput!) {
    createSchool(input: $input) { school { ...SchoolFields } errors { field code message } }
  }`,
  [SCHOOL_FIELDS],
);
const UPDATE = graphql(
  `mutation Update($id: ID!, $input: UpdateSchoolInput!) {
    updateSchool(id: $id, input: $input) { school { ...SchoolFields } errors { field code message } }
  }`,
  [SCHOOL_FIELDS],
);
const DELETE = graphql(`mutation Delete($id: ID!) { deleteSchool(id: $id) { school { id name } errors { field code message } } }`);
const WIZARD = graphql(`mutation Wizard($input: SchoolWizardInput!) {
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
interface ErrorLike {
  message: string;
  path?: readonly unknown[];
  extensions?: Record<string, unknown>;
}

/** No SQL, stack frames or file paths in any error, and no stacktrace extension. */
function expectCleanErrors(errors: ErrorLike[] | undefined) {
  for (const e of errors ?? []) {
    expect(e.message).not.toMatch(/\bselect\b.*\bfrom\b|\binsert into\b|\bupdate\b.*\bset\b|\bat \S+ \(|node_modules|\.ts:\d+|\.js:\d+|violates|constraint/i);
    expect(e.extensions?.stacktrace).toBeUndefined();
    expect(e.extensions?.exception).toBeUndefined();
  }
}

/** A single execution error of this code, with no data for the field. */
function expectExecutionError(res: { data?: Record<string, unknown> | null; errors?: (ErrorLike & { extensions: Record<string, unknown> })[] }, code: string, field: string) {
  expect(res.errors, JSON.stringify(res)).toHaveLength(1);
  expect(res.errors![0].extensions.code).toBe(code);
  expect(res.errors![0].path).toEqual([field]);
  expect(res.data?.[field] ?? null).toBeNull();
  expectCleanErrors(res.errors);
}

describe('Schools over GraphQL', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;

  const { schoolRow, countRows, person, studentOf } = schoolFixtures(() => service);
  async function createSchool(input: Record<string, unknown> = {}) {
    const res = await service.platform.graphql(CREATE, { input: { name: 'Created', subdomain: unique('gql'), ...input } });
    expect(res.errors).toBeUndefined();
    expect(res.data.createSchool.errors).toEqual([]);
    return res.data.createSchool.school;
  }

  beforeAll(async () => {
    ({ service, school: a, other: b } = await startTwoSchools('Alpha Academy', 'Beta Institute'));
  });
  afterAll(() => service?.stop());

  describe('credentials', () => {
    const operations: [string, string | TadaDocumentNode<any, any>, Record<string, unknown>][] = [
      ['school', SCHOOL, { id: '1' }],
      ['schools', SCHOOLS, {}],
      ['createSchool', CREATE, { input: { name: 'X', subdomain: 'x-unauth' } }],
      ['updateSchool', UPDATE, { id: '1', input: { name: 'X' } }],
      ['deleteSchool', DELETE, { id: '1' }],
      ['schoolWizard', WIZARD, { input: { name: 'X', email: 'x@example.com', password: 'secret-password' } }],
    ];

    it.each(operations)('given no credential, when calling %s, then UNAUTHENTICATED and nothing is written', async (field, query, variables) => {
      const before = await countRows(schools);
      const res = await service.anonymous.graphql(query, { ...variables, ...(variables.id ? { id: String(a.id) } : {}) });
      expectExecutionError(res, 'UNAUTHENTICATED', field);
      expect(await countRows(schools)).toBe(before);
      expect((await schoolRow(a.id)).name).toBe('Alpha Academy');
    });

    it.each(operations)('given a wrong token, when calling %s, then UNAUTHENTICATED with HTTP 401', async (_field, query, variables) => {
      const res = await service.client('lp_platform_wrong').graphql(query, { ...variables, ...(variables.id ? { id: String(a.id) } : {}) });
      expect(res.status).toBe(401);
      expect(res.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(res.data ?? null).toBeNull();
      expectCleanErrors(res.errors);
      expect((await schoolRow(a.id)).name).toBe('Alpha Academy');
    });
  });

  describe('school(id)', () => {
    it('given a platform credential, when asking for a school, then its camelCase fields, ID strings and ISO DateTimes', async () => {
      const res = await service.platform.graphql(SCHOOL, { id: String(a.id) });
      expect(res.errors).toBeUndefined();
      const s = res.data.school;
      expect(s).toMatchObject({ id: String(a.id), name: 'Alpha Academy', subdomain: 'alpha-academy', status: 'trial', domains: [] });
      expect(s.organizationId).toBe(s.organization.id);
      expect(s.organization.name).toBe('Alpha Academy');
      expect(s.createdAt).toMatch(ISO);
      expect(s.updatedAt).toMatch(ISO);
    });

    it('given the school admin, when asking for its own school, then it is returned', async () => {
      const res = await a.admin.graphql(SCHOOL, { id: String(a.id) });
      expect(res.errors).toBeUndefined();
      expect(res.data.school.id).toBe(String(a.id));
    });

    it("given another school's credential, when asking for a school, then NOT_FOUND", async () => {
      expectExecutionError(await b.admin.graphql(SCHOOL, { id: String(a.id) }), 'NOT_FOUND', 'school');
      expectExecutionError(await (await studentOf(b)).graphql(SCHOOL, { id: String(a.id) }), 'NOT_FOUND', 'school');
    });

    it.each(['abc', '0', '-1', '99999999999', '999999'])('given the id %s, when asking for a school, then NOT_FOUND', async (id) => {
      expectExecutionError(await service.platform.graphql(SCHOOL, { id }), 'NOT_FOUND', 'school');
    });
  });

  describe('schools(...)', () => {
    let all: number;
    beforeAll(async () => {
      await createSchool({ name: 'Third' });
      await createSchool({ name: 'Fourth' });
      all = await countRows(schools);
    });

    it('given a platform credential, when listing, then every school with a consistent connection', async () => {
      const res = await service.platform.graphql(SCHOOLS, {});
      expect(res.errors).toBeUndefined();
      const c = res.data.schools;
      expect(c.totalCount).toBe(all);
      expect(c.nodes).toHaveLength(all);
      expect(c.edges.map((e) => e.node.id)).toEqual(c.nodes.map((n) => n.id));
      expect(c.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false, startCursor: c.edges[0].cursor, endCursor: c.edges.at(-1)!.cursor });
      expect(c.nodes.map((n) => n.id)).toEqual(expect.arrayContaining([String(a.id), String(b.id)]));
    });

    it('given first and after, when walking the list, then pages follow one another without gaps or repeats', async () => {
      const seen: string[] = [];
      let after: string | null = null;
      for (let pages = 0; pages < 10; pages++) {
        const res: ReplyOf<typeof SCHOOLS> = await service.platform.graphql(SCHOOLS, { first: 1, after });
        expect(res.errors).toBeUndefined();
        const c = res.data.schools;
        expect(c.totalCount).toBe(all);
        expect(c.nodes).toHaveLength(1);
        expect(c.pageInfo.hasPreviousPage).toBe(after !== null);
        seen.push(c.nodes[0].id);
        if (!c.pageInfo.hasNextPage) break;
        after = c.pageInfo.endCursor;
      }
      expect(seen).toHaveLength(all);
      expect(new Set(seen).size).toBe(all);
      expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((x, y) => x - y));
    });

    it('given page and perPage, when listing, then that page', async () => {
      const res = await service.platform.graphql(SCHOOLS, { page: 2, perPage: 2 });
      expect(res.errors).toBeUndefined();
      const full = (await service.platform.graphql(SCHOOLS, {})).data.schools.nodes;
      expect(res.data.schools.nodes).toEqual(full.slice(2, 4));
      expect(res.data.schools.totalCount).toBe(all);
      expect(res.data.schools.pageInfo.hasPreviousPage).toBe(true);
    });

    it('given first above 100 or a cursor the service never gave, when listing, then BAD_USER_INPUT', async () => {
      expectExecutionError(await service.platform.graphql(SCHOOLS, { first: 101 }), 'BAD_USER_INPUT', 'schools');
      expectExecutionError(await service.platform.graphql(SCHOOLS, { after: 'bm9wZQ' }), 'BAD_USER_INPUT', 'schools');
    });

    it('given a school credential, when listing, then only its own school', async () => {
      for (const client of [a.admin, await studentOf(a), await service.token('app', a.id)]) {
        const res = await client.graphql(SCHOOLS, {});
        expect(res.errors).toBeUndefined();
        expect(res.data.schools.totalCount).toBe(1);
        expect(res.data.schools.nodes).toEqual([{ id: String(a.id), name: 'Alpha Academy' }]);
      }
    });

    it('given a subdomain in any case, when listing, then the school there, and for a school credential only if it is its own', async () => {
      const q = graphql(`query ($s: String) { schools(subdomain: $s) { totalCount nodes { id } } }`);
      expect((await service.platform.graphql(q, { s: 'ALPHA-Academy ' })).data.schools).toEqual({ totalCount: 1, nodes: [{ id: String(a.id) }] });
      expect((await service.platform.graphql(q, { s: 'no-such-school' })).data.schools.totalCount).toBe(0);
      expect((await b.admin.graphql(q, { s: 'alpha-academy' })).data.schools.totalCount).toBe(0);
      const rest = await service.platform.get('/schools?subdomain=alpha-academy');
      expect(rest.body.map((s: { id: number }) => s.id)).toEqual([a.id]);
    });

    describe('email and type', () => {
      beforeAll(async () => {
        await person(a.id, 'Student', 'pair@example.com');
        await person(b.id, 'Student', 'pair@example.com');
        await person(b.id, 'Collaborator', 'teacher@example.com');
      });

      it('given email and type, when listing, then the schools where a user of that type has that e-mail', async () => {
        const students = await service.platform.graphql(SCHOOLS, { email: 'Pair@Example.com', type: 'Student' });
        expect(students.errors).toBeUndefined();
        expect(students.data.schools.nodes.map((n) => n.id)).toEqual([String(a.id), String(b.id)]);
        expect(students.data.schools.totalCount).toBe(2);
        const collaborators = await service.platform.graphql(SCHOOLS, { email: 'pair@example.com', type: 'Collaborator' });
        expect(collaborators.data.schools.nodes).toEqual([]);
        const teacher = await service.platform.graphql(SCHOOLS, { email: 'teacher@example.com', type: 'Collaborator' });
        expect(teacher.data.schools.nodes.map((n) => n.id)).toEqual([String(b.id)]);
        const scoped = await a.admin.graphql(SCHOOLS, { email: 'pair@example.com', type: 'Student' });
        expect(scoped.data.schools.nodes.map((n) => n.id)).toEqual([String(a.id)]);
      });

      it('given only one of email and type, when listing, then BAD_USER_INPUT naming the missing one', async () => {
        const onlyEmail = await service.platform.graphql(SCHOOLS, { email: 'pair@example.com' });
        expectExecutionError(onlyEmail, 'BAD_USER_INPUT', 'schools');
        expect(onlyEmail.errors![0].extensions.field).toEqual(['type']);
        const onlyType = await service.platform.graphql(SCHOOLS, { type: 'Student' });
        expectExecutionError(onlyType, 'BAD_USER_INPUT', 'schools');
        expect(onlyType.errors![0].extensions.field).toEqual(['email']);
      });

      it('given a type that is not Student or Collaborator, when listing, then an error and no data', async () => {
        for (const type of ['Teacher', 'Admin']) {
          const res = await service.platform.graphql(SCHOOLS, { email: 'pair@example.com', type });
          expect(res.errors?.[0].extensions.code, type).toMatch(/BAD_USER_INPUT|GRAPHQL_VALIDATION_FAILED/);
          expect(res.data?.schools ?? null).toBeNull();
          expectCleanErrors(res.errors);
        }
      });

      it('given a malformed e-mail, when listing, then BAD_USER_INPUT', async () => {
        const res = await service.platform.graphql(SCHOOLS, { email: 'nope', type: 'Student' });
        expect(res.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
      });
    });
  });

  describe('createSchool', () => {
    it('given a platform credential and every field, when creating, then the school and its rows', async () => {
      const links = Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [`socialLink${n}`, `https://s${n}.example/x`]));
      const subdomain = unique('create');
      const res = await service.platform.graphql(CREATE, {
        input: {
          name: 'Created In GraphQL',
          subdomain,
          domains: ['gql-one.example', 'gql-two.example'],
          email: 'hello@gql.example',
          crmToken: 'crm',
          adsAdvId: 'adv',
          adsPixId: 'pix',
          videoKey: 'vk',
          termsOfUse: 'terms',
          companyName: 'GQL Ltda',
          metadata: { a: 1 },
          metaAvailableLocales: ['pt-BR'],
          ...links,
        },
      });
      expect(res.errors).toBeUndefined();
      expect(res.data.createSchool.errors).toEqual([]);
      const s = res.data.createSchool.school;
      expect(s).toMatchObject({
        name: 'Created In GraphQL',
        subdomain,
        status: 'pending',
        domains: ['gql-one.example', 'gql-two.example'],
        crmToken: '****',
        metadata: { a: 1 },
        metaAvailableLocales: ['pt-BR'],
        ...links,
      });
      expect(s.id).toMatch(/^\d+$/);
      expect(s.createdAt).toMatch(ISO);
      expect(await schoolRow(s.id)).toMatchObject({ subdomain, socialLink7: links.socialLink7, companyName: 'GQL Ltda' });
      expect(await countRows(schoolDomains, eq(schoolDomains.schoolId, Number(s.id)))).toBe(2);
    });

    it('given no name and no subdomain, when creating, then payload errors, school null, no execution error, no row', async () => {
      const before = await countRows(schools);
      const res = await service.platform.graphql(CREATE, { input: { email: 'x@example.com' } });
      expect(res.errors).toBeUndefined();
      expect(res.data.createSchool.school).toBeNull();
      expect(res.data.createSchool.errors).toEqual([
        { field: ['name'], code: 'blank', message: "can't be blank" },
        { field: ['subdomain'], code: 'blank', message: "can't be blank" },
      ]);
      expect(await countRows(schools)).toBe(before);
    });

    it('given a taken subdomain or domain, when creating, then a taken UserError and no row', async () => {
      const owner = await createSchool({ domains: ['owned-gql.example'] });
      const before = await countRows(schools);
      const sub = await service.platform.graphql(CREATE, { input: { name: 'Dup', subdomain: owner.subdomain.toUpperCase() } });
      expect(sub.errors).toBeUndefined();
      expect(sub.data.createSchool).toEqual({ school: null, errors: [{ field: ['subdomain'], code: 'taken', message: 'has already been taken' }] });
      const dom = await service.platform.graphql(CREATE, { input: { name: 'Dup', subdomain: unique('dup'), domains: ['Owned-GQL.example'] } });
      expect(dom.errors).toBeUndefined();
      expect(dom.data.createSchool.school).toBeNull();
      expect(dom.data.createSchool.errors).toEqual([expect.objectContaining({ field: ['domains'], code: 'taken' })]);
      expectCleanErrors(dom.data.createSchool.errors);
      expect(await countRows(schools)).toBe(before);
    });

    it('given an invalid subdomain, when creating, then an invalid UserError', async () => {
      const res = await service.platform.graphql(CREATE, { input: { name: 'Bad', subdomain: 'bad_sub' } });
      expect(res.errors).toBeUndefined();
      expect(res.data.createSchool.school).toBeNull();
      expect(res.data.createSchool.errors).toEqual([expect.objectContaining({ field: ['subdomain'], code: 'invalid' })]);
    });

    it('given a wrongly typed variable, when creating, then BAD_USER_INPUT and no row', async () => {
      const before = await countRows(schools);
      const res = await service.platform.graphql(CREATE, { input: { name: 'T', subdomain: unique('t'), metadata: 'x' } });
      expect(res.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
      expectCleanErrors(res.errors);
      expect(await countRows(schools)).toBe(before);
    });

    it('given a school credential, when creating, then FORBIDDEN and no row', async () => {
      const before = await countRows(schools);
      for (const client of [a.admin, await studentOf(a), await service.token('collaborator', a.id)])
        expectExecutionError(await client.graphql(CREATE, { input: { name: 'No', subdomain: unique('no') } }), 'FORBIDDEN', 'createSchool');
      expect(await countRows(schools)).toBe(before);
    });
  });

  describe('updateSchool', () => {
    it('given a platform credential, when updating fields, then they change and others stay', async () => {
      const created = await createSchool({ email: 'keep@example.com' });
      const res = await service.platform.graphql(UPDATE, { id: created.id, input: { name: 'Renamed', socialLink4: 'https://s4.example', domains: ['upd.example'] } });
      expect(res.errors).toBeUndefined();
      expect(res.data.updateSchool.errors).toEqual([]);
      expect(res.data.updateSchool.school).toMatchObject({ id: created.id, name: 'Renamed', email: 'keep@example.com', socialLink4: 'https://s4.example', domains: ['upd.example'] });
      expect(await schoolRow(created.id)).toMatchObject({ name: 'Renamed', socialLink4: 'https://s4.example' });
    });

    it('given valid events, when updating, then status follows the state machine', async () => {
      const created = await createSchool();
      for (const [event, status] of [['try_out', 'trial'], ['block', 'blocked'], ['active', 'active'], ['overdue', 'overdue'], ['suspend', 'suspended'], ['cancel', 'canceled']]) {
        const res = await service.platform.graphql(UPDATE, { id: created.id, input: { event } });
        expect(res.errors).toBeUndefined();
        expect(res.data.updateSchool.errors, event).toEqual([]);
        expect(res.data.updateSchool.school.status).toBe(status);
        expect((await schoolRow(created.id)).status).toBe(status);
      }
      expect(await countRows(schoolStatusChanges, eq(schoolStatusChanges.schoolId, Number(created.id)))).toBe(6);
    });

    it('given an invalid transition, when updating, then an invalid_transition UserError, school null and no change at all', async () => {
      const created = await createSchool();
      const res = await service.platform.graphql(UPDATE, { id: created.id, input: { name: 'Not Applied', event: 'overdue' } });
      expect(res.errors).toBeUndefined();
      expect(res.data.updateSchool.school).toBeNull();
      expect(res.data.updateSchool.errors).toEqual([expect.objectContaining({ field: ['event'], code: 'invalid_transition' })]);
      expect(await schoolRow(created.id)).toMatchObject({ name: 'Created', status: 'pending' });
      expect(await countRows(schoolStatusChanges, eq(schoolStatusChanges.schoolId, Number(created.id)))).toBe(0);
    });

    it('given a canceled school, when any event is sent, then invalid_transition: cancel is final', async () => {
      const created = await createSchool();
      await service.platform.graphql(UPDATE, { id: created.id, input: { event: 'cancel' } });
      for (const event of ['try_out', 'block', 'active', 'overdue', 'suspend', 'cancel']) {
        const res = await service.platform.graphql(UPDATE, { id: created.id, input: { event } });
        expect(res.data.updateSchool.errors.map((e) => e.code), event).toEqual(['invalid_transition']);
      }
      expect((await schoolRow(created.id)).status).toBe('canceled');
    });

    it('given an unknown event, when updating, then BAD_USER_INPUT', async () => {
      const created = await createSchool();
      const res = await service.platform.graphql(UPDATE, { id: created.id, input: { event: 'explode' } });
      expect(res.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
      expect((await schoolRow(created.id)).status).toBe('pending');
    });

    it('given a cleared name, when updating, then a blank UserError', async () => {
      const created = await createSchool();
      const res = await service.platform.graphql(UPDATE, { id: created.id, input: { name: null } });
      expect(res.errors).toBeUndefined();
      expect(res.data.updateSchool).toEqual({ school: null, errors: [{ field: ['name'], code: 'blank', message: "can't be blank" }] });
    });

    it('given the school admin, when updating its own school with an event, then it applies', async () => {
      const res = await a.admin.graphql(UPDATE, { id: String(a.id), input: { seoTitle: 'Alpha', event: 'active' } });
      expect(res.errors).toBeUndefined();
      expect(res.data.updateSchool.school).toMatchObject({ seoTitle: 'Alpha', status: 'active' });
    });

    it('given a suspended school, then its admin may cancel it (the event alone), but neither change a setting nor fire another event', async () => {
      const s = await service.school('Suspended Canceling');
      expect((await service.platform.graphql(UPDATE, { id: String(s.id), input: { event: 'suspend' } })).data.updateSchool.school.status).toBe('suspended');
      for (const input of [{ seoTitle: 'Sneaked' }, { event: 'cancel', seoTitle: 'Sneaked' }, { event: 'active' }, { event: 'cancel', name: null }]) {
        const refused = await s.admin.graphql(UPDATE, { id: String(s.id), input });
        expectExecutionError(refused, 'FORBIDDEN', 'updateSchool');
        expect(refused.errors![0].message).toBe('The school is suspended: its credentials may only read');
      }
      expect(await schoolRow(s.id)).toMatchObject({ status: 'suspended', seoTitle: null });
      const res = await s.admin.graphql(UPDATE, { id: String(s.id), input: { event: 'cancel' } });
      expect(res.errors).toBeUndefined();
      expect(res.data.updateSchool).toMatchObject({ school: { status: 'canceled' }, errors: [] });
      expect((await schoolRow(s.id)).status).toBe('canceled');
    });

    it("given the admin of another school, when updating, then NOT_FOUND and no change", async () => {
      const before = await schoolRow(a.id);
      expectExecutionError(await b.admin.graphql(UPDATE, { id: String(a.id), input: { name: 'Hijack', event: 'cancel' } }), 'NOT_FOUND', 'updateSchool');
      expect(await schoolRow(a.id)).toEqual(before);
    });

    it('given a student or collaborator credential, when updating, then FORBIDDEN and no change', async () => {
      const before = await schoolRow(a.id);
      for (const client of [await studentOf(a), await service.token('collaborator', a.id)])
        expectExecutionError(await client.graphql(UPDATE, { id: String(a.id), input: { name: 'Nope' } }), 'FORBIDDEN', 'updateSchool');
      expect(await schoolRow(a.id)).toEqual(before);
    });

    it.each(['abc', '999999'])('given the id %s, when updating, then NOT_FOUND', async (id) => {
      expectExecutionError(await service.platform.graphql(UPDATE, { id, input: { name: 'X' } }), 'NOT_FOUND', 'updateSchool');
    });
  });

  describe('deleteSchool', () => {
    it('given a platform credential, when deleting, then the payload names it and it is gone', async () => {
      const created = await createSchool({ name: 'To Delete', domains: ['deleted.example'] });
      const res = await service.platform.graphql(DELETE, { id: created.id });
      expect(res.errors).toBeUndefined();
      expect(res.data.deleteSchool).toEqual({ school: { id: created.id, name: 'To Delete' }, errors: [] });
      expect(await countRows(schools, eq(schools.id, Number(created.id)))).toBe(0);
      expect(await countRows(schoolDomains, eq(schoolDomains.schoolId, Number(created.id)))).toBe(0);
      expectExecutionError(await service.platform.graphql(SCHOOL, { id: created.id }), 'NOT_FOUND', 'school');
      expectExecutionError(await service.platform.graphql(DELETE, { id: created.id }), 'NOT_FOUND', 'deleteSchool');
    });

    it('given a school credential, when deleting, then FORBIDDEN and the school remains', async () => {
      for (const client of [a.admin, await studentOf(a)])
        expectExecutionError(await client.graphql(DELETE, { id: String(a.id) }), 'FORBIDDEN', 'deleteSchool');
      expect(await countRows(schools, eq(schools.id, a.id))).toBe(1);
    });
  });

  describe('schoolWizard', () => {
    it('given a platform credential that names another school (X-School-Id), when running the wizard, then the new school and its nested objects resolve', async () => {
      const res = await service.platform
        .forSchool(a.id)
        .graphql(
          graphql(
            `mutation { schoolWizard(input: {name: "Narrowed Wizard", email: "narrowed@example.com", password: "secret-password"}) { errors { field } school { id } forum { id school { id } } library { schoolId } } }`,
          ),
        );
      expect(res.errors).toBeUndefined();
      const w = res.data.schoolWizard;
      expect(w.school.id).not.toBe(String(a.id));
      expect(w.forum.school.id).toBe(w.school.id);
      expect(w.library.schoolId).toBe(w.school.id);
    });

    it('given a platform credential, when running the wizard, then school, organization, library, forum and an admin with a working credential', async () => {
      const res = await service.platform.graphql(WIZARD, { input: { name: 'Wizard Academy', email: 'Boss@Wizard.example', password: 'secret-password' } });
      expect(res.errors).toBeUndefined();
      const w = res.data.schoolWizard;
      expect(w.errors).toEqual([]);
      expect(w.school).toMatchObject({ name: 'Wizard Academy', subdomain: 'wizard-academy', status: 'trial', email: 'boss@wizard.example', organizationId: w.organization.id });
      expect(w.organization.name).toBe('Wizard Academy');
      expect(w.admin).toMatchObject({ fullName: 'Wizard Academy', email: 'boss@wizard.example' });
      expect(await countRows(libraries, eq(libraries.id, Number(w.library.id)))).toBe(1);
      expect(await countRows(forums, eq(forums.id, Number(w.forum.id)))).toBe(1);
      const admin = service.client(w.admin.credentials);
      const own = await admin.graphql(SCHOOL, { id: w.school.id });
      expect(own.errors).toBeUndefined();
      expect(own.data.school.id).toBe(w.school.id);
      expectExecutionError(await admin.graphql(SCHOOL, { id: String(a.id) }), 'NOT_FOUND', 'school');
      const again = await service.platform.graphql(WIZARD, { input: { name: 'Wizard Academy', email: 'other@wizard.example', password: 'secret-password' } });
      expect(again.data.schoolWizard.school.subdomain).toBe('wizard-academy-2');
    });

    it.each<[string, Record<string, unknown>, string, string]>([
      ['no password', { name: 'W1', email: 'w1@example.com' }, 'password', 'blank'],
      ['no email', { name: 'W2', password: 'secret-password' }, 'email', 'blank'],
      ['no name', { email: 'w3@example.com', password: 'secret-password' }, 'name', 'blank'],
      ['a short password', { name: 'W4', email: 'w4@example.com', password: 'short' }, 'password', 'too_short'],
    ])('given %s, when running the wizard, then payload errors, everything null and no rows', async (_what, input, field, code) => {
      const before = [await countRows(schools), await countRows(organizations), await countRows(users), await countRows(apiTokens)];
      const res = await service.platform.graphql(WIZARD, { input });
      expect(res.errors).toBeUndefined();
      expect(res.data.schoolWizard).toEqual({
        school: null,
        organization: null,
        library: null,
        forum: null,
        admin: null,
        errors: [expect.objectContaining({ field: [field], code })],
      });
      expect([await countRows(schools), await countRows(organizations), await countRows(users), await countRows(apiTokens)]).toEqual(before);
    });

    it('given a failure half-way, when running the wizard, then a masked INTERNAL_SERVER_ERROR and no rows remain', async () => {
      await service.db.execute(sql`create or replace function test_fail_library() returns trigger language plpgsql as $$
        begin if new.name = 'Broken Wizard' then raise exception 'injected failure in libraries'; end if; return new; end $$`);
      await service.db.execute(sql`create trigger test_fail_library before insert on libraries for each row execute function test_fail_library()`);
      try {
        const before = [await countRows(schools), await countRows(organizations), await countRows(users)];
        const res = await service.platform.graphql(WIZARD, { input: { name: 'Broken Wizard', email: 'broken@example.com', password: 'secret-password' } });
        expect(res.errors?.[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
        expect(res.errors?.[0].message).toBe('Internal server error');
        expectCleanErrors(res.errors);
        expect(JSON.stringify(res)).not.toContain('injected');
        expect([await countRows(schools), await countRows(organizations), await countRows(users)]).toEqual(before);
      } finally {
        await service.db.execute(sql`drop trigger test_fail_library on libraries`);
        await service.db.execute(sql`drop function test_fail_library()`);
      }
    });

    it('given a school credential, when running the wizard, then FORBIDDEN', async () => {
      expectExecutionError(
        await a.admin.graphql(WIZARD, { input: { name: 'No', email: 'no@example.com', password: 'secret-password' } }),
        'FORBIDDEN',
        'schoolWizard',
      );
    });
  });
});
