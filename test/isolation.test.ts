import { sql } from 'drizzle-orm';
import {
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isLeafType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessOf, ROLES } from '../src/auth/role-matrix.js';
import type { Role } from '../src/auth/credential.js';
import { appSchema, routes, service as assembled } from '../src/service-modules.js';
import type { LoaderDefinition } from '../src/graphql/context.js';
import { contextFor } from '../src/graphql/request-context.js';
import { snake } from '../src/rest/names.js';
import { seed } from '../src/tools/seed.js';
import type { Route } from '../src/rest/route-table.js';
import { literal, restTargets, segmentOf, selectionOf } from './support/fuzz-requests.js';
import { Draw, valueFor } from './support/fuzz-values.js';
import { FuzzWorld } from './support/fuzz-world.js';
import { rowsOf } from '../src/db/rows.js';
import { type Client, type Service, startService } from './support/service.js';

/** The role matrix's rows, as the modules declare them. */
const operationRules = assembled.roleMatrix.operations;

/**
 * Isolation and roles, generated (issue 10): every row of the route table, every GraphQL root field
 * and every loader behind an object field is tried with school B's credential on school A's
 * objects, with A's ids inside B's writes, with no credential, and with a student; the role matrix
 * says what each role expects, so a route or field without a rule fails here.
 */
const loaderModules = import.meta.glob<Record<string, unknown>>('../src/modules/**/*.ts', { eager: true });

type Field = GraphQLField<unknown, unknown>;
const MISSING_ID = 2_147_483_647;

describe('isolation between schools and the role matrix, on every route and field', () => {
  let service: Service;
  let schema: GraphQLSchema;
  /** Acts in school A (the victim), seeded with objects of every kind. */
  let A: FuzzWorld;
  /** Acts in school B (the attacker), seeded too: its own valid ids fill its writes. */
  let B: FuzzWorld;
  let aIds = new Map<string, Set<number>>();
  let schoolFingerprint = sql``;
  let fullFingerprint = sql``;
  const roots: { field: Field; operation: 'query' | 'mutation'; key: string }[] = [];

  beforeAll(async () => {
    service = await startService();
    schema = await appSchema();
    for (const [operation, type] of [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const)
      for (const field of Object.values(type.getFields())) roots.push({ field, operation, key: `${type.name}.${field.name}` });
    // School A holds a row of every kind: the demo school (made through the API by npm run seed),
    // then what the fuzz world's generated creates add.
    const demo = await seed(service.database, () => {});
    const a = { id: demo.schoolId, adminId: 0, libraryId: 0, forumId: 0, admin: service.client(demo.tokens.admin) };
    const library = await a.admin.graphql('{ libraries(first: 1) { nodes { id } } }');
    const host = await a.admin.graphql(
      `mutation { createHostCredential(libraryId: ${library.data.libraries.nodes[0].id}, input: {host: "vimeo", accessToken: "isolation-secret", pids: "1"}) { errors { field code } } }`,
    );
    expect(host.data.createHostCredential.errors).toEqual([]);
    const b = await service.school('Isolation B');
    // A already holds the demo school: two generated passes add the kinds it lacks (later kinds refer to earlier ones). B, the attacker, needs its own ids of most kinds.
    A = await FuzzWorld.seeded(service, schema, a, b, 2);
    B = await FuzzWorld.seeded(service, schema, b, a, 2);
    // A live sale in A (a free order confirmed): its order.confirmed reaches the demo integration, so A
    // holds a webhook delivery whatever the generated creates drew (the seed's orders are history: no events).
    const buyer = (await a.admin.graphql('{ students(first: 1) { nodes { id } } }')).data.students.nodes[0].id;
    const sale = await a.admin.graphql(`mutation ($s: ID) { createOrder(input: { studentId: $s, status: confirmed }) { errors { field code } } }`, { s: buyer });
    expect(sale.data.createOrder.errors).toEqual([]);
    // An export job of A (started, not created: the generated creates do not make one), for the routes under /exports/:id.
    const job = await a.admin.graphql('mutation { startExport(kind: enrollments) { errors { field code } } }');
    expect(job.data.startExport.errors).toEqual([]);
    await A.refreshIds();
    // Every row of A, by table; and two fingerprints: A's rows only, and every table.
    const owned = [...A.tablesOfSchools];
    for (const table of owned) {
      const result = await service.db.execute(sql.raw(`select id from "${table}" where school_id = ${a.id}`)).catch(() => null);
      if (result) aIds.set(table, new Set(rowsOf<{ id: number }>(result).map((r) => Number(r.id))));
    }
    aIds.set('schools', new Set([a.id]));
    const part = (from: string) => `(select count(*) || ':' || coalesce(max(xmin::text::bigint), 0) from ${from})`;
    schoolFingerprint = sql.raw(
      `select ${[...owned.map((t) => part(`"${t}" where school_id = ${a.id}`)), part(`schools where id = ${a.id}`)].join(" || ',' || ")} as fp`,
    );
    fullFingerprint = A.fingerprintStatement;
  }, 600_000);

  afterAll(async () => {
    await service?.stop();
  });

  const fingerprint = async (statement = fullFingerprint) => rowsOf<{ fp: string }>(await service.db.execute(statement))[0].fp;

  /** Ids in a reply that are rows of A. */
  function aRowsIn(value: unknown, table: string | undefined, found: number[] = []): number[] {
    if (!value || typeof value !== 'object') return found;
    if (Array.isArray(value)) {
      for (const item of value) aRowsIn(item, table, found);
      return found;
    }
    const row = value as Record<string, unknown>;
    if (row.school_id === A.a.id || row.schoolId === A.a.id) found.push(Number(row.id));
    else if (table && aIds.get(table)?.has(Number(row.id))) found.push(Number(row.id));
    for (const [key, nested] of Object.entries(row)) if (typeof nested === 'object') aRowsIn(nested, key === 'nodes' ? table : undefined, found);
    return found;
  }

  const tableOfPath = (path: string) => {
    const segment = path.split('?')[0].split('/').filter((s) => s && !s.startsWith(':')).pop() ?? '';
    return A.tableOf(segment);
  };

  /** A route's URL with every path parameter naming an object of A. */
  function urlWithAIds(route: Route): string {
    return route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      if (name === 'code') return 'isolation-code';
      const segment = segmentOf(route.path, name);
      const table = A.tableOf(segment);
      if (table === 'schools') return String(A.a.id);
      const id = table ? [...(aIds.get(table) ?? [])].at(-1) : undefined;
      if (id === undefined) unnamed.add(`${route.path} :${name}`);
      return String(id ?? MISSING_ID);
    });
  }

  /** Path parameters for which school A has no row to name (reported: a route the walk cannot judge). */
  const unnamed = new Set<string>();

  const rootOf = (route: Route) => roots.find((r) => r.field.name === route.field)!;

  /** A body a client of school B would send to a route: its resource hash (or params) filled with B's own ids. */
  function plausibleBody(route: Route): Record<string, unknown> {
    const body: Record<string, unknown> = {};
    const field = rootOf(route).field;
    for (const [name, source] of Object.entries(route.args ?? {})) {
      const arg = field.args.find((a) => a.name === name);
      if (!arg) continue;
      const value = valueFor(Draw.seeded(13), arg.type, name, { ids: B, nastiness: 0, complete: true, rest: true });
      if (source.from === 'resource') body[source.key] = value;
      // A param the operation requires (the lesson of `POST /enrollments/:id/lessons_progresses`) is sent too.
      if (source.from === 'param' && isNonNullType(arg.type)) body[source.name] = value;
    }
    return body;
  }

  const query = (route: Route) => {
    const search = new URLSearchParams(route.when ?? {}).toString();
    return search ? `?${search}` : '';
  };

  it('the role matrix has a row for the field of every route and names every role or denies it', () => {
    const fields = new Set(roots.map((r) => r.field.name));
    for (const route of routes) {
      expect(fields.has(route.field), `${route.path} runs ${route.field}, which the schema has not`).toBe(true);
      const root = roots.find((r) => r.field.name === route.field)!;
      expect(operationRules[root.key], `no row in the role matrix for ${root.key} (${route.path})`).toBeDefined();
      if (route.public) expect(operationRules[root.key].public, `${route.path} is public but ${root.key} is not`).toBe(true);
    }
    for (const { key } of roots) {
      expect(operationRules[key], `no row in the role matrix for ${key}`).toBeDefined();
      for (const role of ROLES) expect(['allow', 'own', 'deny']).toContain(accessOf(operationRules[key], role));
    }
  });

  it("every REST row with school B's credential on school A's objects: 404, or a list without A's rows; nothing of A changes", async () => {
    const problems: string[] = [];
    for (const { method, route } of restTargets(routes)) {
      if (route.public) continue;
      const scoped = /:[A-Za-z_]/.test(route.path);
      const url = urlWithAIds(route) + query(route);
      const before = await fingerprint(scoped ? fullFingerprint : schoolFingerprint);
      const res = await B.a.admin.request(method, url, method === 'GET' || method === 'DELETE' ? undefined : plausibleBody(route));
      const after = await fingerprint(scoped ? fullFingerprint : schoolFingerprint);
      const name = `${method} ${route.path}${query(route)} → ${url}`;
      if (after !== before) problems.push(`${name}: changed the database (${res.status})`);
      const denied = accessOf(operationRules[rootOf(route).key], 'admin') === 'deny';
      if (scoped && res.status !== 404 && !(denied && res.status === 403)) problems.push(`${name}: ${res.status}, not 404: ${res.text.slice(0, 200)}`);
      if (!scoped && res.status >= 200 && res.status < 300) {
        const leaked = aRowsIn(res.body, tableOfPath(route.path));
        if (leaked.length) problems.push(`${name}: answered rows of school A (${leaked.slice(0, 5).join(', ')})`);
      }
      if (res.status >= 500) problems.push(`${name}: ${res.status}`);
    }
    expect(problems).toEqual([]);
    expect([...unnamed].join(', '), 'path parameters naming no row of school A').toBe('');
  }, 120_000);

  /**
   * The arguments a client passes: the required ones, and the optional ids: all of them beside a
   * required id (`addCourseToPath(id, courseId)`), else the first (`notifications(studentId |
   * collaboratorId)`, `courseClass(id | code)`).
   */
  function chosenArgs(field: Field) {
    const idish = (name: string) => /(^id$|Id$|Ids$)/.test(name);
    const requiredId = field.args.some((a) => isNonNullType(a.type) && idish(a.name));
    const firstOptionalId = field.args.find((a) => !isNonNullType(a.type) && idish(a.name));
    return field.args.filter((a) => isNonNullType(a.type) || (idish(a.name) && (requiredId || a === firstOptionalId)));
  }

  /** Arguments for a root field: ids of A where the argument names a table, plausible values elsewhere. */
  function argsNaming(world: FuzzWorld, field: Field, idFor: (name: string) => unknown, requiredOnly = false): string {
    const d = Draw.seeded(7);
    return chosenArgs(field)
      .filter((a) => !requiredOnly || isNonNullType(a.type))
      .map((arg) => {
        const idName = arg.name === 'id' ? field.name : arg.name;
        const table = /(^id$|Id$|Ids$)/.test(arg.name) ? world.tableOf(idName) : undefined;
        const value = table ? idFor(idName) : arg.name === 'after' ? null : valueFor(d, arg.type, idName, { ids: world, nastiness: 0, complete: true });
        if (table && /Ids$/.test(arg.name)) return `${arg.name}: ${literal([value], arg.type)}`;
        return `${arg.name}: ${literal(value, arg.type)}`;
      })
      .join(', ');
  }

  const document = (operation: string, field: Field, args: string, selection = selectionOf(Draw.seeded(3), field.type)) =>
    `${operation} { result: ${field.name}${args ? `(${args})` : ''} ${selection} }`;

  const codesOf = (res: { data?: any; errors?: any[] }) => [
    ...(res.errors ?? []).map((e) => String(e.extensions?.code)),
    ...((res.data?.result?.errors as { code: string }[] | undefined) ?? []).map((e) => e.code),
  ];

  it("every GraphQL root field naming school A's objects, with school B's credential: not found, or nothing of A; nothing changes", async () => {
    // Credentials are walked like any row (issue 26): B's admin lists, revokes and makes tokens only of its own school.
    expect(aIds.get('api_tokens')?.size, "school A's tokens, for revokeApiToken to name").toBeGreaterThan(0);
    expect(roots.map((r) => r.key)).toEqual(expect.arrayContaining(['Query.apiTokens', 'Mutation.createApiToken', 'Mutation.revokeApiToken']));
    const problems: string[] = [];
    for (const { field, operation, key } of roots) {
      if (operationRules[key].public) continue;
      const named = field.args.filter((a) => /(^id$|Id$|Ids$)/.test(a.name) && A.tableOf(a.name === 'id' ? field.name : a.name));
      const aIdFor = (name: string) => {
        const table = A.tableOf(name)!;
        return table === 'schools' ? A.a.id : [...(aIds.get(table) ?? [MISSING_ID])].at(-1) ?? MISSING_ID;
      };
      const before = await fingerprint(named.length ? fullFingerprint : schoolFingerprint);
      const res = await B.a.admin.graphql(document(operation, field, argsNaming(B, field, aIdFor)));
      const after = await fingerprint(named.length ? fullFingerprint : schoolFingerprint);
      if (res.status >= 500) problems.push(`${key}: ${res.status}`);
      if (after !== before) problems.push(`${key}: changed the database`);
      const result = res.data?.result;
      const leaked = aRowsIn(result, A.tableOf(getNamedType(field.type).name.replace(/(Connection|Payload)$/, '')));
      if (leaked.length) problems.push(`${key}: answered rows of school A (${leaked.join(', ')})`);
      if (!named.length) continue;
      // Named A's object: not found (or, for a list under A's parent, nothing).
      const codes = codesOf(res);
      const empty = result === null || (Array.isArray(result) && result.length === 0) || result?.nodes?.length === 0 || result?.totalCount === 0;
      const namesTheId = ((result?.errors as { field: string[] }[] | undefined) ?? []).some((e) => named.some((a) => e.field.includes(a.name)));
      const refused = codes.some((c) => /not_found/i.test(c)) || (operation === 'mutation' && namesTheId) || (accessOf(operationRules[key], 'admin') === 'deny' && codes.includes('FORBIDDEN'));
      if (!refused && !(operation === 'query' && empty)) problems.push(`${key}: neither not found nor empty: ${JSON.stringify(res).slice(0, 300)}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  /** Input fields that name rows of a school: `courseId`, `studentIds`, nested ones with their path. */
  function referenceFields(type: GraphQLInputObjectType, path: string[] = [], depth = 0): { path: string[]; many: boolean }[] {
    if (depth > 2) return [];
    return Object.values(type.getFields()).flatMap((f) => {
      const named = getNamedType(f.type);
      if (isInputObjectType(named)) return referenceFields(named, [...path, f.name], depth + 1).map((r) => ({ ...r, list: true }));
      const table = /(Id|Ids)$/.test(f.name) ? A.tableOf(f.name) : undefined;
      return table && A.tablesOfSchools.has(table) ? [{ path: [...path, f.name], many: /Ids$/.test(f.name) }] : [];
    });
  }

  it("every write naming school A's objects inside school B's input is refused with the field named (GraphQL 422 payload, REST 422)", async () => {
    const problems: string[] = [];
    let tried = 0;
    let judged = 0;
    // Operations the matrix denies a school's admin (the platform's own) are refused whole: the role walk below checks them.
    for (const { field, key } of roots.filter((r) => r.operation === 'mutation' && accessOf(operationRules[r.key], 'admin') !== 'deny')) {
      const input = field.args.find((a) => a.name === 'input');
      const inputType = input && getNullableType(input.type);
      if (!inputType || !isInputObjectType(inputType)) continue;
      for (const reference of referenceFields(inputType)) {
        if (reference.path.length > 1) continue; // nested lists of attributes: their parents are checked as a whole
        const name = reference.path[0];
        // The path's parent (a required argument) decides; the input's copy of it is not read.
        if (field.args.some((a) => a.name === name && isNonNullType(a.type))) continue;
        const table = A.tableOf(name)!;
        const aId = [...(aIds.get(table) ?? [])].at(-1);
        if (aId === undefined) continue;
        const d = Draw.seeded(11);
        const values = valueFor(d, inputType, 'input', { ids: B, nastiness: 0, complete: true }) as Record<string, unknown>;
        // The foreign id is the input's only reference that may be left out: no alias or sibling decides instead.
        for (const other of referenceFields(inputType)) if (!isNonNullType(inputType.getFields()[other.path[0]].type)) delete values[other.path[0]];
        values[name] = reference.many ? [aId] : aId;
        // Only the input names the parent: an optional argument (`createForumQuestion(forumSectionId)`) would decide instead.
        const args = chosenArgs(field)
          .filter((a) => a.name !== 'input' && a.name !== name && (isNonNullType(a.type) || a.name === 'id'))
          .map((a) => {
            const idName = a.name === 'id' ? field.name : a.name;
            return `${a.name}: ${literal(B.tableOf(idName) ? B.idsFor(idName)[0] : valueFor(d, a.type, idName, { ids: B, nastiness: 0, complete: true }), a.type)}`;
          });
        args.push(`input: ${literal(values, input!.type)}`);
        const before = await fingerprint(schoolFingerprint);
        const res = await B.a.admin.graphql(`mutation { result: ${field.name}(${args.join(', ')}) { errors { field code message } } }`);
        tried++;
        const after = await fingerprint(schoolFingerprint);
        if (after !== before) problems.push(`${key}(${name}: A's ${aId}): changed school A`);
        const errors: { field: string[]; code: string }[] = res.data?.result?.errors ?? [];
        const topLevel = (res.errors ?? []).map((e) => e.extensions?.code);
        // B's own parent (an argument) was not found: nothing to judge. The input's id is judged below.
        if (topLevel.includes('NOT_FOUND')) continue;
        judged++;
        if (!errors.some((e) => e.field.includes(name))) problems.push(`${key}(${name}: A's ${aId}): not refused on ${name}: ${JSON.stringify(res).slice(0, 300)}`);
      }
    }
    expect(tried).toBeGreaterThan(20);
    expect(judged).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  it("REST writes naming school A's objects in the resource hash answer 422 with the field's name", async () => {
    const problems: string[] = [];
    let tried = 0;
    for (const { method, route } of restTargets(routes)) {
      if (method === 'PATCH' || route.public) continue;
      const resource = Object.entries(route.args ?? {}).find(([, s]) => s.from === 'resource');
      if (!resource) continue;
      const mutation = schema.getMutationType()!.getFields()[route.field];
      const input = mutation?.args.find((a) => a.name === resource[0]);
      const inputType = input && getNullableType(input.type);
      if (!inputType || !isInputObjectType(inputType)) continue;
      const pathArgs = Object.keys(route.args ?? {}).filter((k) => (route.args![k] as { from: string }).from === 'path');
      // A parent in the path decides (an argument, or merged into the hash by `extra`); the body's copies of it are not read.
      const merged = ((resource[1] as { extra?: string[] }).extra ?? []).filter((k) => route.path.includes(`:${k}`));
      if (pathArgs.some((p) => p !== 'id') || merged.length) continue;
      const reference = referenceFields(inputType).find((r) => r.path.length === 1 && !pathArgs.includes(r.path[0]));
      if (!reference) continue;
      const name = reference.path[0];
      const aId = [...(aIds.get(A.tableOf(name)!) ?? [])].at(-1);
      if (aId === undefined) continue;
      const values = valueFor(Draw.seeded(5), inputType, 'input', { ids: B, nastiness: 0, complete: true, rest: true }) as Record<string, unknown>;
      values[snake(name)] = reference.many ? [aId] : aId;
      const url = route.path.replace(/:([A-Za-z_]+)/g, (_, p: string) => {
        const segment = segmentOf(route.path, p);
        return String(B.tableOf(segment) === 'schools' ? B.a.id : B.idsFor(segment)[0] ?? MISSING_ID);
      });
      const source = resource[1] as { key: string };
      const before = await fingerprint(schoolFingerprint);
      const res = await B.a.admin.request(method, url + query(route), { [source.key]: values });
      tried++;
      if ((await fingerprint(schoolFingerprint)) !== before) problems.push(`${method} ${route.path}: changed school A`);
      if (res.status === 404) continue; // B's own parent was not found: nothing to judge
      // 422, or 403 when another field of the plausible body is one only another role may write.
      if (![403, 422].includes(res.status) || !Object.keys(res.body?.errors ?? {}).some((k) => k.includes(snake(name))))
        problems.push(`${method} ${route.path} (${snake(name)}: A's ${aId}): ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(tried).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it('every loader behind an object field, asked for rows of school A by school B, loads nothing of A', async () => {
    const definitions = new Set<LoaderDefinition<unknown, unknown>>();
    for (const module of Object.values(loaderModules))
      for (const value of Object.values(module))
        if (value && typeof value === 'object' && typeof (value as any).batch === 'function' && typeof (value as any).name === 'string')
          definitions.add(value as LoaderDefinition<unknown, unknown>);
    expect(definitions.size).toBeGreaterThan(20);
    const ctx = await contextFor({ db: service.db, now: () => new Date() }, { authorization: `Bearer ${B.a.admin.token}` });
    // Ids of A's rows that are no row of B in any table: whatever a loader answers for them is A's.
    const bIds = new Set<number>();
    for (const table of A.tablesOfSchools) {
      const result = await service.db.execute(sql.raw(`select id from "${table}" where school_id = ${B.a.id}`)).catch(() => null);
      for (const r of result ? rowsOf<{ id: number }>(result) : []) bIds.add(Number(r.id));
    }
    bIds.add(B.a.id);
    const everyAId = [...new Set([...aIds.values()].flatMap((s) => [...s]))].filter((id) => !bIds.has(id));
    expect(everyAId.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const definition of definitions) {
      // The public view of a media (and its slides) is meant for anyone who has its id.
      if (definition.public) continue;
      const keyType = /Resource$/.test(definition.name) ? 'resource' : 'id';
      const keys =
        keyType === 'resource'
          ? ['Course', 'SchoolProduct', 'Lesson', 'CourseModule'].flatMap((resourceType) => everyAId.map((resourceId) => ({ resourceType, resourceId })))
          : everyAId;
      const values = await definition.batch(ctx, keys as never[]);
      values.forEach((value, i) => {
        const empty =
          value === null || value === undefined || value instanceof Error || (Array.isArray(value) && value.length === 0) || value === 0 || value === false ||
          (typeof value === 'object' && Object.values(value as object).every((v) => v === null));
        if (!empty) problems.push(`${definition.name}(${JSON.stringify(keys[i])}) loaded ${JSON.stringify(value).slice(0, 120)}`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('no credential: 401 on every route and root field that is not public', async () => {
    const problems: string[] = [];
    for (const { method, route } of restTargets(routes)) {
      if (route.public) continue;
      const res = await service.anonymous.request(method, urlWithAIds(route) + query(route), method === 'GET' ? undefined : {});
      if (res.status !== 401) problems.push(`${method} ${route.path}: ${res.status}`);
    }
    for (const { field, operation, key } of roots) {
      if (operationRules[key].public) continue;
      const res = await service.anonymous.graphql(document(operation, field, argsNaming(A, field, () => MISSING_ID)));
      if (!codesOf(res).includes('UNAUTHENTICATED')) problems.push(`${key}: ${JSON.stringify(res.errors ?? res.data).slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });

  /** Credentials of every role in a school of their own, so calls the matrix allows may write there. */
  async function roleClients(): Promise<Record<Role, Client>> {
    const c = await service.school('Isolation roles');
    const student = await c.admin.graphql(`mutation { createStudent(input: {fullName: "Role Student", email: "role-student@example.com"}) { student { id } errors { code } } }`);
    const studentId = Number(student.data.createStudent.student.id);
    return {
      platform: service.platform.forSchool(c.id),
      admin: c.admin,
      collaborator: await service.token('collaborator', c.id, c.adminId),
      app: await service.token('app', c.id),
      student: await service.token('student', c.id, studentId),
    };
  }

  it('each role: FORBIDDEN on every root field and route the matrix denies it, never on one it allows', async () => {
    const clients = await roleClients();
    const problems: string[] = [];
    for (const role of ROLES) {
      for (const { field, operation, key } of roots) {
        const access = accessOf(operationRules[key], role);
        // Required arguments only: an 'own' role may still be refused a scope that is not its own (a student's activities of a course).
        // A student reads released content through an enrollment it names.
        const through = access === 'own' && field.args.some((a) => a.name === 'enrollmentId') ? `enrollmentId: ${MISSING_ID}` : '';
        const args = [argsNaming(A, field, () => MISSING_ID, true), through].filter(Boolean).join(', ');
        // A field of a scalar (exportPerson's JSON document) takes no selection.
        const res = await clients[role].graphql(document(operation, field, args, isLeafType(getNamedType(field.type)) ? '' : '{ __typename }'));
        const forbidden = (res.errors ?? []).some((e) => e.extensions?.code === 'FORBIDDEN');
        if (access === 'deny' && !forbidden && !operationRules[key].public) problems.push(`${role} ${key}: not forbidden`);
        if (access !== 'deny' && forbidden) problems.push(`${role} ${key}: forbidden, though the matrix says ${access}`);
      }
      for (const { method, route } of restTargets(routes)) {
        const root = roots.find((r) => r.field.name === route.field)!;
        if (accessOf(operationRules[root.key], role) !== 'deny' || route.public) continue;
        const url = route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => (name === 'code' ? 'x' : String(MISSING_ID)));
        const res = await clients[role].request(method, url + query(route), method === 'GET' ? undefined : {});
        if (res.status !== 403) problems.push(`${role} ${method} ${route.path}: ${res.status}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('secret fields read null for every role but the platform and the admin; personal ones for anyone but staff and the person', async () => {
    const clients = await roleClients();
    const schoolId = (await clients.admin.graphql('{ schools(first: 1) { nodes { id } } }')).data.schools.nodes[0].id;
    const set = await clients.platform.graphql(
      `mutation { updateSchool(id: ${schoolId}, input: {crmToken: "crm-secret", videoAccessToken: "video-secret", videoKey: "key-secret"}) { errors { field code } } }`,
    );
    expect(set.data.updateSchool.errors).toEqual([]);
    for (const role of ROLES) {
      const res = await clients[role].graphql(`{ school(id: ${schoolId}) { crmToken videoAccessToken videoKey } }`);
      const sees = role === 'platform' || role === 'admin';
      // The tokens are write-only: who may see them sees their hints.
      expect(res.data.school, role).toEqual(sees ? { crmToken: '****', videoAccessToken: '****cret', videoKey: 'key-secret' } : { crmToken: null, videoAccessToken: null, videoKey: null });
    }
    // A person's e-mail: staff read it; a student reads its own, never another's (here: through a message's sender).
    const students = await clients.admin.graphql('{ students(first: 5) { nodes { id email } } }');
    const student = students.data.students.nodes[0];
    const own = await clients.student.graphql(`{ student(id: ${student.id}) { email } }`);
    expect(own.data.student.email).toBe('role-student@example.com');
    for (const role of ['platform', 'admin', 'collaborator', 'app'] as const)
      expect((await clients[role].graphql(`{ student(id: ${student.id}) { email } }`)).data.student.email, role).toBe('role-student@example.com');
    const other = await clients.admin.graphql('mutation { createStudent(input: {fullName: "Other", email: "other-student@example.com"}) { student { id } } }');
    const foreign = await clients.student.graphql(`{ student(id: ${other.data.createStudent.student.id}) { email } }`);
    expect(foreign.data?.student ?? null).toBeNull();
    expect(JSON.stringify(foreign)).not.toContain('other-student@example.com');
  });

  it("a student sees only its own rows in every list the matrix gives it as 'own'", async () => {
    // A student of A with an enrollment, next to A's other students' rows the seeding made.
    const students = await A.a.admin.graphql('{ students(first: 100) { nodes { id } } }');
    const ids: number[] = students.data.students.nodes.map((n: { id: string }) => Number(n.id));
    expect(ids.length).toBeGreaterThan(1);
    const problems: string[] = [];
    let compared = 0;
    for (const studentId of ids.slice(0, 3)) {
      const student = await service.token('student', A.a.id, studentId);
      for (const { field, key } of roots.filter((r) => r.operation === 'query')) {
        if (accessOf(operationRules[key], 'student') !== 'own') continue;
        const type = getNullableType(field.type);
        const nodes = isObjectType(type) && type.getFields().nodes ? getNamedType(type.getFields().nodes.type) : null;
        if (!nodes || !isObjectType(nodes) || field.args.some((a) => isNonNullType(a.type))) continue;
        const owner = ['studentId', 'userId', 'recipientId'].find((f) => nodes.getFields()[f]);
        const selection = `{ nodes { id ${owner ?? ''} } }`;
        const mine = await student.graphql(`{ result: ${field.name}(first: 100) ${selection} }`);
        const all = await A.a.admin.graphql(`{ result: ${field.name}(first: 100) ${selection} }`);
        const allIds = new Set(all.data.result.nodes.map((n: { id: string }) => n.id));
        compared++;
        for (const node of mine.data?.result?.nodes ?? []) {
          if (!allIds.has(node.id)) problems.push(`${key}: student ${studentId} saw ${node.id}, which is not a row of its school`);
          if (owner && Number(node[owner]) !== studentId) problems.push(`${key}: student ${studentId} saw ${node.id} of ${owner} ${node[owner]}`);
        }
      }
    }
    expect(compared).toBeGreaterThan(5);
    expect(problems).toEqual([]);
  });
});
