import type { GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSchema, routes } from '../../src/service-modules.js';
import { compileRoute } from '../../src/rest/compile.js';
import { buildOpenApi } from '../../src/rest/openapi.js';
import type { Route } from '../../src/rest/route-table.js';
import { expectErrorBody } from '../support/rest-assertions.js';
import { type Client, type Service, startService, type TestSchool } from '../support/service.js';

// Lists refuse what they do not understand (rest/router.ts, compile.ts queryParams): every GET row
// of the route table, as the modules declare it, answers a query parameter it does not read with a
// 400 `unknown_parameter` naming it; the parameters it reads are in its OpenAPI operation.

const isGet = (route: Route) => (Array.isArray(route.method) ? route.method : [route.method]).includes('GET');
const getRows = routes.filter(isGet);
/** A route's path and the `when` query that selects the row, with any id in its parameters (the check runs before the operation). */
const urlOf = (route: Route, extra: Record<string, string>) => {
  const path = route.path.replace(/:([A-Za-z_]+)/g, '1');
  return `${path}?${new URLSearchParams({ ...(route.when ?? {}), ...extra })}`;
};
const shape = (path: string) => path.replace(/^\/v1(?=\/)/, '').replace(/[:{]([A-Za-z_]+)\}?/g, '{}').replace(/(.)\/$/, '$1');

let service: Service;
let schema: GraphQLSchema;
let school: TestSchool;
let student: Client;
beforeAll(async () => {
  service = await startService();
  schema = await appSchema();
  school = await service.school('Strict Lists');
  const made = await school.admin.graphql('mutation { createStudent(input: { fullName: "Strict Student", email: "strict@example.com" }) { student { id } errors { code } } }');
  student = await service.token('student', school.id, Number(made.data.createStudent.student.id));
});
afterAll(() => service?.stop());

describe('an unknown query parameter on a GET', () => {
  it('is a 400 naming each unknown parameter, on every GET row of the route table', async () => {
    expect(getRows.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const route of getRows) {
      const { queryParams, paged } = compileRoute(schema, route);
      // Two made-up names; the row reads neither (they would otherwise be ignored, or filter nothing).
      const url = urlOf(route, { unknown_filter_x: '2', also_unknown: 'y' });
      // The weakest credential that may run the row: the unknown parameter is judged after the role check.
      let res = await (route.public ? service.client(null) : school.admin).get(url);
      for (const next of [service.platform.forSchool(school.id), student]) if (res.status === 403) res = await next.get(url);
      const label = `GET ${route.path}${route.when ? ` ${JSON.stringify(route.when)}` : ''} (${paged ? 'list' : 'read'}; reads ${queryParams.join(', ') || 'nothing'})`;
      if (res.status !== 400 || res.body?.details?.unknown_filter_x?.[0]?.error !== 'unknown_parameter' || res.body?.details?.also_unknown?.[0]?.error !== 'unknown_parameter') {
        failures.push(`${label}: ${res.status} ${res.text.slice(0, 200)}`);
        continue;
      }
      expectErrorBody(res, 400);
      // Nothing else is named: the parameters it reads (the `when` choice) are not refused.
      expect(Object.keys(res.body.details).sort(), label).toEqual(['also_unknown', 'unknown_filter_x']);
    }
    expect(failures).toEqual([]);
  });

  it('names the parameters the route reads, and speaks the request language', async () => {
    const res = await school.admin.get('/enrollments?school_product_idd=2', { headers: { 'accept-language': 'en' } });
    expectErrorBody(res, 400);
    expect(res.body.details).toEqual({ school_product_idd: [{ error: 'unknown_parameter' }] });
    expect(res.body.errors.school_product_idd[0]).toMatch(/not a query parameter.*page, per_page.*school_product_id.*status/);
    const pt = await school.admin.get('/enrollments?school_product_idd=2', { headers: { 'accept-language': 'pt-BR' } });
    expect(pt.body.errors.school_product_idd).toEqual(['não é um parâmetro de consulta desta rota']);
  });

  it('is judged after the credential: a caller the route refuses learns nothing of its parameters', async () => {
    expect((await service.client(null).get('/enrollments?unknown_filter_x=1')).status).toBe(401);
  });

  it('leaves the parameters a row reads alone: page and per_page on a list, the `when` choice, the filters', async () => {
    for (const url of ['/enrollments?page=1&per_page=5', '/enrollments?status=active', '/school_products?page=1']) {
      const res = await school.admin.get(url);
      expect(res.status, `${url}: ${res.text}`).toBe(200);
    }
    // The row a query value chooses keeps it (`find_by=code`); its plain twin does not refuse it either.
    expect((await school.admin.get('/enrollments/NO-SUCH-CODE?find_by=code')).status).toBe(404);
    expect((await school.admin.get('/enrollments/999999?find_by=id')).status).toBe(404);
  });

  it('lists the parameters every GET reads in its OpenAPI operation', () => {
    const doc = buildOpenApi(schema, routes) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    const byShape = new Map(Object.entries(doc.paths).map(([key, ops]) => [shape(key), ops]));
    for (const route of getRows) {
      const op = byShape.get(shape(route.path))?.get;
      expect(op, route.path).toBeDefined();
      const documented = (op!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      expect(documented, `GET ${route.path}`).toEqual(expect.arrayContaining(compileRoute(schema, route).queryParams));
    }
  });
});

describe('GET /enrollments filters as the Edools API did', () => {
  it('by school_product_id, student_id and course_class_id, as the GraphQL list does', async () => {
    const product = async (title: string) => (await school.admin.post('/school_products', { school_product: { title } })).body.id as number;
    const person = async (n: number) => {
      const made = await school.admin.graphql(`mutation { createStudent(input: { fullName: "Filter ${n}", email: "filter${n}@example.com" }) { student { id } } }`);
      const studentId = Number(made.data.createStudent.student.id);
      const reg = await school.admin.graphql(`mutation { createRegistration(input: { studentId: ${studentId} }) { registration { id } } }`);
      return { studentId, registrationId: Number(reg.data.createRegistration.registration.id) };
    };
    const [p1, p2] = [await product('Filter One'), await product('Filter Two')];
    const [s1, s2] = [await person(1), await person(2)];
    const enroll = async (p: { registrationId: number }, productId: number) => {
      const res = await school.admin.post('/enrollments', {
        enrollment: { registration_id: p.registrationId, school_product_id: productId, max_attendance_type: 'indeterminate', available_until: '2030-01-01T00:00:00Z' },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const e11 = await enroll(s1, p1);
    const e21 = await enroll(s2, p1);
    const e12 = await enroll(s1, p2);
    const ids = async (url: string) => {
      const res = await school.admin.get(url);
      expect(res.status, res.text).toBe(200);
      return (res.body as { id: number }[]).map((e) => e.id).sort((a, b) => a - b);
    };
    expect(await ids(`/enrollments?school_product_id=${p1}`)).toEqual([e11, e21].sort((a, b) => a - b));
    expect(await ids(`/enrollments?school_product_id=${p2}`)).toEqual([e12]);
    expect(await ids(`/enrollments?student_id=${s1.studentId}`)).toEqual([e11, e12].sort((a, b) => a - b));
    expect(await ids(`/enrollments?school_product_id=${p1}&student_id=${s2.studentId}`)).toEqual([e21]);
    // Paged, the filter holds for the count too.
    const paged = await school.admin.get(`/enrollments?school_product_id=${p1}&page=1&per_page=1`);
    expect(paged.headers['x-total-count']).toBe('2');
    // A filter naming no object of the school is a 404, as the GraphQL list's argument is.
    expect((await school.admin.get('/enrollments?student_id=999999')).status).toBe(404);
  });
});
