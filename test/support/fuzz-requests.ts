import { randomBytes } from 'node:crypto';
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  getNamedType,
  getNullableType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import qs from 'qs';
import type { Method, Route } from '../../src/rest/route-table.js';
import { Draw, deepValue, garbageIds, nasty, valueFor } from './fuzz-values.js';
import type { FuzzWorld } from './fuzz-world.js';
import type { Sent } from './fuzz-oracle.js';

/** A request ready for `app.inject`. */
export interface Request extends Sent {
  headers: Record<string, string>;
}

/** How often a leaf is replaced by a nasty value: a request in three is clean, so the writes behind validation run too. */
const nastinessOf = (d: Draw) => d.weighted<number>([[35, () => 0], [25, () => 0.02], [25, () => 0.08], [15, () => 0.25]]);

/** Who sends it: mostly A's admin and the platform acting for A; now and then nobody, or a forged token. */
export function credentialHeaders(d: Draw, world: FuzzWorld): Record<string, string> {
  const token = (t: string | null) => (t ? { authorization: `Bearer ${t}` } : {});
  return d.weighted<Record<string, string>>([
    [50, () => token(world.a.admin.token)],
    [38, () => ({ ...token(world.service.platform.token), 'x-school-id': String(world.a.id) })],
    [4, () => token(world.service.platform.token)],
    [4, () => ({})],
    [4, () => ({ authorization: d.pick(['Bearer lp_admin_forged', 'Token token="x\u0001"', 'Basic abc', 'Bearer ', `Token token=${world.a.admin.token}`]) })],
  ]);
}

/** Multipart with bracket names, well formed. */
function multipart(body: Record<string, unknown>): { payload: Buffer; type: string } {
  const boundary = `----fz${randomBytes(6).toString('hex')}`;
  const pairs = qs.stringify(body, { encode: false, arrayFormat: 'brackets', allowEmptyArrays: false }).split('&').filter(Boolean);
  const parts = pairs.map((pair) => {
    const i = pair.indexOf('=');
    return `--${boundary}\r\nContent-Disposition: form-data; name="${pair.slice(0, i)}"\r\n\r\n${pair.slice(i + 1)}\r\n`;
  });
  return { payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), type: `multipart/form-data; boundary=${boundary}` };
}

const methodsOf = (route: Route): Method[] => (Array.isArray(route.method) ? route.method : [route.method]);

/** The REST rows as (method, row) pairs: every verb of every row. */
export function restTargets(routes: readonly Route[]): { method: Method; route: Route }[] {
  return routes.flatMap((route) => methodsOf(route).map((method) => ({ method, route })));
}

function argOf(world: FuzzWorld, route: Route, name: string): GraphQLArgument | undefined {
  const field = world.schema.getQueryType()!.getFields()[route.field] ?? world.schema.getMutationType()!.getFields()[route.field];
  return field?.args.find((a) => a.name === name);
}

/** The table a path parameter names: `:school_product_id` by its name, `:id` by the segment before it (`/orders/:id/cancel`). */
export function segmentOf(path: string, name: string): string {
  if (name !== 'id') return name;
  const segments = path.split('/').filter(Boolean);
  return segments[segments.indexOf(':id') - 1] ?? '';
}

/** A path parameter: a real id (of the table the path names), a code, or garbage. */
function pathValue(d: Draw, world: FuzzWorld, path: string, name: string, write: boolean): string {
  if (d.chance(0.15)) return encodeURIComponent(String(d.pick([...garbageIds.filter(Boolean), 'a%00b', '\u0000', '💥', 'x'.repeat(d.pick([99, 101, 500]))])));
  const segment = segmentOf(path, name);
  if (name === 'code') return encodeURIComponent(`fz${d.int(0, 99)}`);
  const ids = world.tableOf(segment) === 'schools' ? (write ? [world.b.id] : [world.a.id, world.b.id]) : world.idsFor(segment);
  return String(d.pick(ids.length ? ids : [1]));
}

/** A REST request for one row: path, query and body from the row's arguments, values mostly plausible. */
export function restRequest(d: Draw, world: FuzzWorld, method: Method, route: Route): Request {
  const write = method !== 'GET';
  let path = route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => pathValue(d, world, route.path, name, write));
  path = d.pick(['', '', '', '/v1', '/api']) + path.replace(/^\/v1(?=\/)/, '') + d.pick(['', '', '', '.json', '/']);
  const query: Record<string, unknown> = { ...(route.when ?? {}) };
  const body: Record<string, unknown> = {};
  const nastiness = nastinessOf(d);
  for (const [name, source] of Object.entries(route.args ?? {})) {
    const arg = argOf(world, route, name);
    if (!arg) continue;
    const options = { ids: world, nastiness, rest: true };
    if (source.from === 'resource') {
      if (d.chance(0.05)) continue;
      body[source.key] = d.chance(0.03) ? nasty(d) : valueFor(d, arg.type, name, options);
    } else if (source.from === 'param' && d.chance(0.7)) {
      (d.chance(0.5) ? query : body)[source.name] = valueFor(d, arg.type, source.name, options);
    }
  }
  if (route.reply === 'list' && d.chance(0.6)) {
    query.page = d.pick<unknown>([1, 2, 0, -1, 2147483647, 2147483648, '9'.repeat(25), 'x', '', '1.5', [1]]);
    if (d.chance(0.7)) query.per_page = d.pick<unknown>([1, 10, 100, 101, 0, -5, 'all', '']);
  }
  if (d.chance(0.05)) query[d.pick(['a[][b]]', '[]', 'a[[b]]', 'x[]', 'page[]'])] = d.pick(['1', '\u0000', '']);
  const headers = credentialHeaders(d, world);
  if (d.chance(0.05)) headers.accept = d.pick(['application/vnd.learning.v2+json', 'text/html', '*/*', 'application/+json']);
  const search = qs.stringify(query, { arrayFormat: 'brackets' });
  const url = search ? `${path}?${search}` : path;
  const hasBody = Object.keys(body).length > 0 || (write && d.chance(0.3));
  if (!hasBody) return { face: 'rest', method, url, write, headers };
  const encoding = d.weighted<string>([[60, () => 'json'], [20, () => 'form'], [20, () => 'multipart']]);
  if (encoding === 'json') return { face: 'rest', method, url, write, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
  if (encoding === 'form')
    return { face: 'rest', method, url, write, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: qs.stringify(body, { arrayFormat: d.pick(['brackets', 'indices'] as const) }) };
  const m = multipart(body);
  return { face: 'rest', method, url, write, headers: { ...headers, 'content-type': m.type }, body: m.payload };
}

/** A well-formed request made malformed as clients and attackers do: truncated, mis-typed, mis-encoded, too deep. */
export function malformed(d: Draw, request: Request): Request {
  const text = typeof request.body === 'string' ? request.body : Buffer.isBuffer(request.body) ? request.body.toString('latin1') : '{"x":{"y":1}}';
  const headers = { ...request.headers };
  const bytes = (b: string | Buffer) => ({ ...request, headers, body: b, write: true });
  return d.weighted<Request>([
    [4, () => bytes(text.slice(0, d.int(0, Math.max(0, text.length - 1))))],
    [2, () => { headers['content-type'] = 'application/json'; return bytes(Buffer.concat([Buffer.from(text.slice(0, 10)), Buffer.from([d.pick([0xff, 0xc3, 0xed, 0x80, 0xfe])]), Buffer.from(text.slice(10))])); }],
    [2, () => { headers['content-type'] = 'application/json'; return bytes(`{"x":${d.pick(['1e999', 'NaN', '-', '.5', '01', '"\\ud800"', '"\\u0000"', 'undefined', "'a'", '[1,]', '{"a" 1}'])}}`); }],
    [2, () => { headers['content-type'] = 'application/json'; const n = d.int(60, 20_000); return bytes(`{"x":${'['.repeat(n)}${']'.repeat(n)}}`); }],
    [2, () => { headers['content-type'] = 'application/json'; return bytes(d.pick(['[]', '[{"a":1}]', '"text"', '42', 'null', 'true', '\ufeff{}', ' ', '{"__proto__":{"admin":true}}'])); }],
    [3, () => { headers['content-type'] = d.pick(['text/plain', 'application/xml', 'application/octet-stream', 'application/json; charset=utf-16', 'multipart/form-data', 'multipart/form-data; boundary=', 'application/x-www-form-urlencoded', 'text/html; charset=utf-8', ';;', 'application/graphql', 'image/png']); return bytes(text); }],
    [3, () => { headers['content-type'] = 'application/x-www-form-urlencoded'; return bytes(d.pick(['a[][b]]=1', '[]=x', 'x[[y]]=1&x[y]=2', 'a=%FF%FE', 'a=%00', 'a[0]=1&a[b]=2', `a${'[b]'.repeat(50)}=1`, '&&&=&=', 'a[999999999]=1', '%=%', 'a[__proto__][x]=1'])); }],
    [3, () => { headers['content-type'] = 'multipart/form-data; boundary=XX'; return bytes(d.pick([
      '--XX\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
      '--XX\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--YY--\r\n',
      '--XX\r\n\r\nb\r\n--XX--\r\n',
      '--XX--\r\n',
      '',
      'garbage',
      '--XX\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nabc\r\n--XX--\r\n',
      '--XX\r\nContent-Disposition: form-data; name="a[][b]]"\r\n\r\n1\r\n--XX\r\nContent-Disposition: form-data; name="[]"\r\n\r\n2\r\n--XX--\r\n',
    ])); }],
  ]);
}

/** The selection of a field's result: its leaf fields, now and then one related object or connection. */
export function selectionOf(d: Draw, type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (isAbstractType(named)) return '{ __typename }';
  if (!isObjectType(named)) return '';
  const fields = Object.values(named.getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type)));
  const parts = fields.filter((f) => isLeafType(getNamedType(f.type))).map((f) => f.name);
  const related = fields.filter((f) => !isLeafType(getNamedType(f.type)));
  if (named.getFields().errors && named.getFields().errors.name === 'errors') parts.push('errors { field code message }');
  for (const f of related) {
    if (f.name === 'errors') continue;
    const always = f.name === 'nodes' || f.name === 'pageInfo' || (depth === 0 && named.name.endsWith('Payload'));
    if (always || (depth < 2 && d.chance(0.15))) parts.push(`${f.name} ${selectionOf(d, f.type, depth + 1)}`);
  }
  return `{ ${parts.join(' ') || '__typename'} }`;
}

/** A GraphQL literal for a value (what a client writes inline instead of a variable). */
export function literal(value: unknown, type: GraphQLInputType | null): string {
  const nullable = type && getNullableType(type);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return nullable && isEnumType(nullable) && /^[_A-Za-z]\w*$/.test(value) && !/^(true|false|null)$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  const item = nullable && 'ofType' in nullable ? (nullable.ofType as GraphQLInputType) : null;
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, item)).join(', ')}]`;
  const fields = nullable && isInputObjectType(nullable) ? nullable.getFields() : {};
  return `{${Object.entries(value as object).map(([k, v]) => `${k}: ${literal(v, fields[k]?.type ?? null)}`).join(', ')}}`;
}

/** Operations with the wrong declared type for a variable: graphql-js must refuse them before execution. */
const wrongTypes = ['String', 'Int', 'Float', '[ID]', 'Boolean!', 'Unknown', 'JSON'];

/** One operation on a root field: its arguments as variables or literals, values mostly plausible. */
export function graphqlRequest(d: Draw, world: FuzzWorld, field: GraphQLField<unknown, unknown>, operation: 'query' | 'mutation'): Request {
  const inline = d.chance(0.25);
  const declared: string[] = [];
  const call: string[] = [];
  const variables: Record<string, unknown> = {};
  const nastiness = nastinessOf(d);
  // One operation in ten is sabotaged on purpose: a variable of the wrong type, or a required argument left out.
  const sabotage = d.weighted<string>([[90, () => 'none'], [5, () => 'wrong type'], [3, () => 'omit'], [2, () => 'unset']]);
  const target = d.int(0, Math.max(0, field.args.length - 1));
  for (const [i, arg] of field.args.entries()) {
    const sabotaged = sabotage !== 'none' && i === target;
    if (sabotaged && sabotage === 'omit') continue;
    if (!sabotaged && !d.chance(isNonNullType(arg.type) ? 1 : 0.35)) continue;
    const idName = arg.name === 'id' ? field.name : arg.name;
    const value =
      arg.name === 'after' && !d.chance(nastiness)
        ? Buffer.from(`id:${d.pick([1, 2, 5, 2147483647])}`).toString('base64url')
        : world.tableOf(idName) === 'schools' && arg.name === 'id' && !d.chance(nastiness)
          ? String(operation === 'mutation' ? world.b.id : d.pick([world.a.id, world.b.id]))
          : valueFor(d, arg.type, idName, { ids: world, nastiness });
    if (inline) call.push(`${arg.name}: ${literal(value, arg.type)}`);
    else {
      declared.push(`$${arg.name}: ${sabotaged && sabotage === 'wrong type' ? d.pick(wrongTypes) : arg.type.toString()}`);
      call.push(`${arg.name}: $${arg.name}`);
      if (!(sabotaged && sabotage === 'unset')) variables[arg.name] = value;
    }
  }
  const head = declared.length ? `${operation} Fuzz(${declared.join(', ')})` : `${operation} Fuzz`;
  const query = `${head} { result: ${field.name}${call.length ? `(${call.join(', ')})` : ''} ${selectionOf(d, field.type)} }`;
  const headers = { ...credentialHeaders(d, world), 'content-type': 'application/json' };
  return { face: 'graphql', method: 'POST', url: '/graphql', write: operation === 'mutation', headers, body: JSON.stringify({ query, variables }) };
}

/** Requests to /graphql that are wrong before any field runs: transport, document and envelope mistakes. */
export function graphqlEnvelope(d: Draw, world: FuzzWorld): Request {
  const headers = { ...credentialHeaders(d, world), 'content-type': 'application/json' };
  const post = (body: string | Buffer, extra: Record<string, string> = {}): Request => ({ face: 'graphql', method: 'POST', url: '/graphql', write: true, headers: { ...headers, ...extra }, body });
  const json = (value: unknown) => post(JSON.stringify(value));
  const simple = '{ schools(first: 2) { totalCount nodes { id name } } }';
  return d.weighted<Request>([
    [3, () => ({ face: 'graphql', method: 'GET', url: `/graphql?${qs.stringify({ query: d.pick([simple, 'mutation { deleteSchool(id: 1) { errors { code } } }', '{', '', 'query($a: Int) { schools(first: $a) { totalCount } }']), variables: d.pick(['{"a": 1}', '{"a":', '[]', '"x"', '{"a": 2147483648}', undefined]) })}`, write: false, headers: d.chance(0.8) ? { ...headers, 'apollo-require-preflight': 'true' } : headers })],
    [3, () => json({ query: simple, variables: d.pick<unknown>([[], 'x', 1, null, { a: '\u0000' }, deepValue(d.int(60, 500))]) })],
    [2, () => json({ query: d.pick<unknown>([1, null, {}, [], '', ' ', '#only a comment', simple.repeat(2), `query A ${simple} query A ${simple}`, `${simple} ${simple}`]) })],
    [2, () => json({ query: `query A ${simple} query B ${simple}`, operationName: d.pick<unknown>(['C', null, 1, '', undefined]) })],
    [2, () => json({ query: simple, extensions: d.pick<unknown>([{ persistedQuery: { version: 1, sha256Hash: 'abc' } }, { persistedQuery: { version: 2 } }, 'x', [], null]) })],
    [2, () => json({ extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } })],
    [2, () => json([{ query: simple }, { query: simple }])],
    [3, () => { const n = d.int(50, 5000); return json({ query: `{ schools(first: 1) ${'{ nodes '.repeat(n)}{ id }${' }'.repeat(n)} }` }); }],
    [3, () => { const n = d.int(50, 5000); return json({ query: `{ schools(first: ${'['.repeat(n)}1${']'.repeat(n)}) { totalCount } }` }); }],
    [2, () => json({ query: `{ schools(first: 1) { totalCount } }${' '.repeat(d.pick([1000, 900_000]))}# ${'x'.repeat(d.int(0, 100))}` })],
    [2, () => json({ query: `{ ${Array.from({ length: d.int(2, 200) }, (_, i) => `a${i}: schools(first: 1) { totalCount }`).join(' ')} }` })],
    [2, () => json({ query: d.pick(['{ schools { totalCount } }\u0000', '{ schools(first: "\\ud800") { totalCount } }', '{ \ufeffschools { totalCount } }', '{ schools(first: 1) { nodes { id(x: 1) } } }', 'subscription { schools { totalCount } }', '{ __schema { types { name } } }', '{ schools(first: 1e999) { totalCount } }', '{ schools(first: 99999999999999999999) { totalCount } }']) })],
    [3, () => malformed(d, post(JSON.stringify({ query: simple })))],
    [2, () => post(`query=${encodeURIComponent(simple)}`, { 'content-type': 'application/x-www-form-urlencoded', ...(d.chance(0.5) ? { 'apollo-require-preflight': '1' } : {}) })],
    [2, () => { const m = multipart({ query: simple }); return post(m.payload, { 'content-type': m.type }); }],
    [2, () => post(JSON.stringify({ query: simple }), { 'content-type': d.pick(['text/plain', 'application/xml', 'application/graphql', '', 'application/json; charset=latin1']) })],
    [1, () => ({ face: 'graphql', method: d.pick(['PUT', 'PATCH', 'DELETE']), url: '/graphql', write: true, headers, body: JSON.stringify({ query: simple }) })],
  ]);
}
