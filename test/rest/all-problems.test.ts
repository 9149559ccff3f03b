import { sql } from 'drizzle-orm';
import { type GraphQLSchema, getNamedType, getNullableType, isListType, isNonNullType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { inputObjectOf, requiredFieldsOf } from '../../src/graphql/required-fields.js';
import { type CompiledRoute, compileRoute } from '../../src/rest/compile.js';
import { camel, snake } from '../../src/rest/names.js';
import { buildOpenApi } from '../../src/rest/openapi.js';
import type { Method, Route } from '../../src/rest/route-table.js';
import { appSchema, routes } from '../../src/service-modules.js';
import { seed } from '../../src/tools/seed.js';
import { segmentOf } from '../support/fuzz-requests.js';
import { FuzzWorld } from '../support/fuzz-world.js';
import { expectErrorBody } from '../support/rest-assertions.js';
import type { Client, Reply, Service } from '../support/service.js';
import { startService } from '../support/service.js';

// One 422 with every problem, everywhere: every create row of the route table, sent a body holding
// only a field no input has, names every required field of its operation in one 422; every update
// row, sent its required fields cleared, names each of them in one 422. The required fields are the
// declaration the OpenAPI document's `required` lists are made from (graphql/required-fields.ts:
// `@RequiredFields(...)` and non-null input fields, plus the row's non-null parameters).

const methodsOf = (route: Route): Method[] => (Array.isArray(route.method) ? route.method : [route.method]);
const resourceOf = (compiled: CompiledRoute) => compiled.args.find((a) => a.source.from === 'resource');
const keyOf = (compiled: CompiledRoute) => {
  const found = resourceOf(compiled)?.source;
  return found?.from === 'resource' ? found.key : undefined;
};
const isList = (compiled: CompiledRoute) => {
  const arg = resourceOf(compiled)?.arg;
  return !!arg && isListType(getNullableType(arg.type));
};

let service: Service;
let schema: GraphQLSchema;
let world: FuzzWorld;
beforeAll(async () => {
  service = await startService();
  schema = await appSchema();
  // School A holds objects of every kind, the parents and objects the rows name: the demo school (made
  // through the API by npm run seed), then what a generated pass of every create adds (as the isolation test does).
  const demo = await seed(service.database, () => {});
  const a = { id: demo.schoolId, adminId: 0, libraryId: 0, forumId: 0, admin: service.client(demo.tokens.admin) };
  // A host credential the generated creates do not make (its host is a closed list of providers).
  const library = await a.admin.graphql('{ libraries(first: 1) { nodes { id } } }');
  const host = await a.admin.graphql(
    `mutation { createHostCredential(libraryId: ${library.data.libraries.nodes[0].id}, input: {host: "vimeo", accessToken: "all-problems", pids: "1"}) { errors { field code } } }`,
  );
  expect(host.data.createHostCredential.errors).toEqual([]);
  world = await FuzzWorld.seeded(service, schema, a, await service.school('All Problems B'), 2);
}, 300_000);
afterAll(() => service?.stop());

/** The values a path parameter may take in school A: its ids, or a code (`find_by=code`) of the table its path names. */
async function candidates(route: Route, name: string): Promise<string[]> {
  const segment = segmentOf(route.path, name);
  const table = world.tableOf(segment === 'code' ? (route.path.split('/').filter(Boolean)[0] ?? '') : segment);
  if (name === 'code') {
    if (!table) return [];
    const rows = await service.db.execute(sql.raw(`select code from "${table}" where school_id = ${world.a.id} and code is not null order by id desc limit 8`));
    return rowsOf<{ code: string }>(rows).map((r) => encodeURIComponent(r.code));
  }
  if (table === 'schools') return [String(world.a.id)];
  return world.idsFor(segment).map(String);
}

/**
 * Sends `body` to the row with each combination of candidate path values (and each credential that
 * may run it) until one names an object that exists: the reply about the body, not about the path.
 */
async function sendToExisting(route: Route, method: Method, body: unknown): Promise<{ reply: Reply; url: string }> {
  const names = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
  const values = await Promise.all(names.map((n) => candidates(route, n)));
  const tries = Math.max(1, ...values.map((v) => v.length)) ** Math.min(names.length, 2);
  const clients: Client[] = [world.a.admin, world.platformForA, service.platform];
  let last: { reply: Reply; url: string } | undefined;
  for (let i = 0; i < Math.min(tries, 64); i++) {
    let k = i;
    const path = route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      const options = values[names.indexOf(name)];
      const value = options.length ? options[k % options.length] : '1';
      k = Math.floor(k / Math.max(1, options.length));
      return value;
    });
    const url = route.when ? `${path}?${new URLSearchParams(route.when)}` : path;
    for (const client of clients) {
      const reply = await client.request(method, url, body);
      last = { reply, url };
      if (reply.status !== 403) break;
    }
    if (last!.reply.status !== 404) return last!;
  }
  return last!;
}

/** The fields a 422 names as blank. */
const blanks = (reply: Reply) =>
  Object.entries((reply.body?.details ?? {}) as Record<string, { error: string }[]>)
    .filter(([, codes]) => codes.some((c) => c.error === 'blank'))
    .map(([field]) => field)
    .sort();

describe('one 422 with every problem', () => {
  it('a create sent only an unrelated field names every required field at once', async () => {
    const doc = buildOpenApi(schema, routes) as { paths: Record<string, Record<string, any>> };
    const creates = routes.filter((r) => r.reply === 'create' && methodsOf(r).includes('POST'));
    expect(creates.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let checked = 0;
    for (const route of creates) {
      const compiled = compileRoute(schema, route);
      const key = keyOf(compiled);
      // The row's required parameters (`lesson_id`) and its input's required fields, as REST names them.
      const params = compiled.args.filter((a) => a.source.from === 'param' && isNonNullType(a.arg.type)).map((a) => (a.source as { name: string }).name);
      const input = resourceOf(compiled) && inputObjectOf(resourceOf(compiled)!.arg.type);
      // A field the row fills from its path (`extra`: /students/:student_id/registrations) is never missing from the body.
      const fromPath = new Set(((resourceOf(compiled)?.source as { extra?: string[] } | undefined)?.extra ?? []).filter((name) => route.path.includes(`:${name}`)));
      const fields = input ? requiredFieldsOf(input).map(snake).filter((f) => !fromPath.has(f)) : [];
      const expected = [...params, ...fields.map((f) => (isList(compiled) ? `${key}[0].${f}` : f))].sort();
      if (!key && !params.length) continue; // an action that takes nothing (duplicate a course)
      checked++;
      const unrelated = { unrelated_field_zz: 'x' };
      const body = key ? { [key]: isList(compiled) ? [unrelated] : unrelated } : unrelated;
      const { reply, url } = await sendToExisting(route, 'POST', body);
      const label = `POST ${route.path} (${route.field}) as ${url}`;
      if (!expected.length) {
        // Nothing required: the create may succeed, but it may not refuse a field it does not declare required.
        if (reply.status === 422 && blanks(reply).length) failures.push(`${label}: names ${blanks(reply).join(', ')} blank, declared required: none`);
        continue;
      }
      const missing = expected.filter((f) => !blanks(reply).includes(f));
      if (reply.status !== 422 || missing.length) {
        failures.push(`${label}: ${reply.status}, expected one 422 naming ${expected.join(', ')}; missing ${missing.join(', ')}: ${reply.text.slice(0, 300)}`);
        continue;
      }
      expectErrorBody(reply, 422);
      // The OpenAPI document lists the same required fields for the operation's body.
      if (key && fields.length && !isList(compiled) && !resourceOf(compiled)!.source.hasOwnProperty('adapt')) {
        const ops = Object.entries(doc.paths).find(([p]) => p.replace(/\{[^}]+\}/g, ':') === route.path.replace(/^\/v1(?=\/)/, '').replace(/:[A-Za-z_]+/g, ':'))?.[1];
        const schemaOfBody = ops?.post?.requestBody?.content?.['application/json']?.schema;
        const hash = schemaOfBody?.properties?.[key] ?? schemaOfBody?.anyOf?.find((s: any) => s.properties?.[key])?.properties?.[key];
        const documented: string[] = hash?.required ?? [];
        if (!route.when) expect(documented.sort(), `${label}: OpenAPI required`).toEqual([...fields].sort());
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it('an update sent its required fields cleared names each of them at once', async () => {
    const updates = routes.filter((r) => r.reply === 'update' && methodsOf(r).some((m) => m === 'PUT' || m === 'PATCH'));
    expect(updates.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let checked = 0;
    for (const route of updates) {
      const compiled = compileRoute(schema, route);
      const key = keyOf(compiled);
      const input = resourceOf(compiled) && inputObjectOf(resourceOf(compiled)!.arg.type);
      if (!key || !input || isList(compiled)) continue;
      const required = requiredFieldsOf(input).map(snake);
      if (!required.length) continue;
      checked++;
      for (const method of methodsOf(route).filter((m) => m === 'PUT' || m === 'PATCH')) {
        // Every required field cleared at once: with null, and with an empty string where the field is text.
        const fields = input.getFields();
        const isText = (f: string) => getNamedType(fields[camel(f)].type).name === 'String';
        for (const clear of [() => null, (f: string) => (isText(f) ? '' : null)]) {
          const body = { [key]: Object.fromEntries(required.map((f) => [f, clear(f)])) };
          const { reply, url } = await sendToExisting(route, method, body);
          const label = `${method} ${route.path} (${route.field}) as ${url} with ${JSON.stringify(body)}`;
          const missing = required.filter((f) => !blanks(reply).includes(f));
          if (reply.status !== 422 || missing.length) failures.push(`${label}: ${reply.status}, missing ${missing.join(', ')}: ${reply.text.slice(0, 300)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });
});
