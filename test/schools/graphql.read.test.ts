import { beforeAll, describe, expect, it } from 'vitest';
import { schools } from '../../src/db/school.table.js';
import type { Service, TestSchool } from '../support/service.js';
import { graphql, type ReplyOf, type TadaDocumentNode } from '../support/graphql.js';
import { unique } from '../support/rows.js';
import { CREATE, DELETE, expectCleanErrors, expectExecutionError, SCHOOL, schoolFixtures, SCHOOLS, UPDATE, WIZARD } from '../support/schools.fixtures.js';
import { twoSchools } from '../support/world.js';

// GraphQL face of Schools: who may ask, school(id) and schools(...).
// Operations and fixtures: test/support/schools.fixtures.ts.

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

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

  twoSchools('Alpha Academy', 'Beta Institute', (w) => ({ service, school: a, other: b } = w));

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

    it('given plain fields and relations, when asking for a school, then only those columns are read and the reply is what a read of every column gives, to each credential', async () => {
      const fields = 'id name subdomain status domains organization { id } schoolProducts(first: 2) { nodes { id } }';
      // A fragment reads every column.
      const ask = async (client: typeof a.admin, id: number, narrow: boolean) => {
        const { data, errors } = await client.graphql(`query ($id: ID!) { school(id: $id) { ${narrow ? fields : `... on School { ${fields} }`} } }`, { id: String(id) });
        return { data, errors };
      };
      const same = async (client: typeof a.admin, id: number) => {
        const [narrow, compiled, full] = [await ask(client, id, true), await ask(client, id, true), await ask(client, id, false)];
        expect(compiled).toEqual(narrow);
        expect(narrow).toEqual(full);
        return narrow;
      };
      const own = await same(a.admin, a.id);
      expect(own.errors).toBeUndefined();
      expect(own.data.school).toMatchObject({ id: String(a.id), name: 'Alpha Academy', subdomain: 'alpha-academy', status: 'trial', domains: [] });
      expect(own.data.school.organization.id).toEqual(expect.any(String));
      // Another school's: not found to a school's credential, read by the platform's.
      expectExecutionError(await same(b.admin, a.id), 'NOT_FOUND', 'school');
      expect((await same(service.platform, b.id)).data.school).toMatchObject({ id: String(b.id), name: 'Beta Institute' });
      // A student: its own school as a read of every column gives it, another's not found.
      const student = await studentOf(a);
      await same(student, a.id);
      expectExecutionError(await same(student, b.id), 'NOT_FOUND', 'school');
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
});
