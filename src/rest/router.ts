import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getNullableType, type GraphQLArgument, type GraphQLInputType, type GraphQLSchema, isListType } from 'graphql';
import type { ExecuteOptions, Executor } from '../graphql/executor.js';
import { refusal } from '../auth/guard.js';
import type { Rule } from '../auth/role-matrix.js';
import type { Context } from '../graphql/context.js';
import { MAX_PAGE_SIZE, numberedPage } from '../graphql/pagination.js';
import { inputObjectOf, requiredFieldsOf } from '../graphql/required-fields.js';
import { type CompiledRoute, compileRoute } from './compile.js';
import { coerceInput, shapeInput } from './input.js';
import { type ErrorCode, errorCodes, payloadStatus, raisedStatus } from '../errors/codes.js';
import { restFieldName, snake } from './names.js';
import { requestLocale } from '../errors/i18n.js';
import { errorReply, type Refusal, type RestError, retryAfterOf, sendErrorReply, sendPage, toRestRefusal, userErrorsRefusal } from '../errors/reply.js';
import type { Adapt, Method, Route } from './route-table.js';
import { remembered } from '../lib/remembered.js';

export interface RestDeps {
  schema: GraphQLSchema;
  /** Runs a route's compiled operation (graphql/executor.ts: compiled once per route). */
  execute: Executor;
  routes: readonly Route[];
  /** The role matrix's rows (auth/role-matrix.ts), by root field (`Query.courses`). */
  rules: Readonly<Record<string, Rule>>;
  /** Builds the request's context; throws AppError('unauthenticated') for a bad credential. */
  context(request: FastifyRequest, isPublic: boolean): Promise<Context>;
  log(error: unknown, request: FastifyRequest): void;
}

interface Row {
  compiled: CompiledRoute;
  /** The row's `when` as pairs (built once: the rows of a path are chosen by them on every request). */
  when?: readonly (readonly [string, string])[];
  /** Its arguments as variablesFor reads them, each one's type questions answered once (argPlans). */
  plans: readonly ArgPlan[];
  /** The row's own names for the positional path parameters. */
  paramNames: string[];
  /** The role matrix's row for the operation, checked before the body is read into arguments. */
  rule: Rule;
  mutation: boolean;
  /** A GET's query parameters (compile.ts queryParams, and the `when` keys of its path's other rows); others are refused. */
  knownQuery?: ReadonlySet<string>;
}

/** `/v1/x/:id/` → `/x/:p0`: rows of one shape share a fastify route whatever their parameter names. */
export function routeShape(path: string): { shape: string; names: string[] } {
  const names: string[] = [];
  const clean = path.replace(/^\/v1(?=\/)/, '').split('?')[0].replace(/\/+$/, '') || '/';
  const shape = clean.replace(/:([A-Za-z_]+)/g, (_, name: string) => `:p${names.push(name) - 1}`);
  return { shape, names };
}

/** The positions of a shape's segments that one of its rows holds secret (`pathParam('code', { secret: true })`): logs mask them. */
function secretSegments(shape: string, rows: Row[]): number[] {
  const secret = (row: Row, k: number) =>
    Object.values(row.compiled.route.args ?? {}).some((a) => a.from === 'path' && a.secret && a.name === row.paramNames[k]);
  return shape
    .split('/')
    .filter(Boolean)
    .flatMap((segment, i) => {
      // A parameter may share its segment with a suffix (`:p0.pdf`): the whole segment is masked.
      const k = /^:p(\d+)/.exec(segment)?.[1];
      return k !== undefined && rows.some((row) => secret(row, Number(k))) ? [i] : [];
    });
}

/** A refusal of the route itself, before or after its operation ran (the writer words it: errors/reply.ts). */
class RestFailure extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message ?? refusal.code);
  }
}
const badRequest = (field: string, message: string) => new RestFailure({ code: 'bad_request', message, rows: [{ field, code: 'bad_request', message }] });

/** Registers every row; operations are compiled here, once, and a broken row stops start-up. */
export function registerRestRoutes(app: FastifyInstance, deps: RestDeps): void {
  const groups = new Map<string, Map<Method, Row[]>>();
  for (const route of deps.routes) {
    const compiled = compileRoute(deps.schema, route);
    const { shape, names } = routeShape(route.path);
    const mutation = !!deps.schema.getMutationType()?.getFields()[route.field];
    const rule = deps.rules[`${mutation ? 'Mutation' : 'Query'}.${route.field}`];
    const byMethod = groups.get(shape) ?? new Map<Method, Row[]>();
    groups.set(shape, byMethod);
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      const when = compiled.route.when ? Object.entries(compiled.route.when) : undefined;
      byMethod.set(method, [...(byMethod.get(method) ?? []), { compiled, when, plans: argPlans(compiled, mutation), paramNames: names, rule, mutation }]);
    }
  }
  for (const [shape, byMethod] of groups) {
    const all = [...byMethod.values()].flat();
    // A row reading the raw body (a signed callback) has its JSON parser keep the bytes (body-parsers.ts).
    const config = {
      secretSegments: secretSegments(shape, all),
      rawBody: all.some((row) => Object.values(row.compiled.route.args ?? {}).some((a) => a.from === 'rawBody')),
      // A POST that takes a CSV body (the onboarding batch): its parser reads the table (body-parsers.ts).
      csv: all.find((row) => row.compiled.route.csv)?.compiled.route.csv,
    };
    for (const [method, rows] of byMethod) {
      // Rows with a `when` come first: they claim the requests whose query matches them.
      rows.sort((a, b) => Number(!a.compiled.route.when) - Number(!b.compiled.route.when));
      if (method === 'GET') {
        const choosers = rows.flatMap((row) => Object.keys(row.compiled.route.when ?? {}));
        for (const row of rows) row.knownQuery = new Set([...row.compiled.queryParams, ...choosers]);
      }
      app.route({ method, url: shape, config, handler: (request, reply) => handle(deps, rows, request, reply) });
    }
    const allowed = [...byMethod.keys()];
    const specPath = [...byMethod.values()][0][0].compiled.route.path;
    const others = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as Method[]).filter((m) => !allowed.includes(m));
    if (others.length)
      app.route({
        method: others,
        url: shape,
        config,
        handler: (_request, reply) => sendError(reply.header('allow', allowed.join(', ')), { code: 'method_not_allowed', message: `${specPath} answers ${allowed.join(', ')}` }),
      });
  }
}

/** Accept verdicts remembered for the distinct headers clients send (a handful; past 64 the memory starts over). */
const acceptVerdict = remembered(64, (accept) => judgeAccept(accept));

/** Accept: JSON, anything, nothing, or a vendor type of version 1; a vendor type of another version is 406. */
function acceptable(accept: string | undefined): boolean {
  return !accept || acceptVerdict(accept);
}

/** The remembered verdicts of acceptable (tests: the memory stays bounded). */
export const rememberedAccepts = (): number => acceptVerdict.size;

function judgeAccept(accept: string): boolean {
  const types = accept.split(',').map((t) => t.split(';')[0].trim().toLowerCase());
  const otherVersion = (t: string) => /^application\/vnd\.[^.]+(?:\.[^.+]+)*\.v(\d+)\+json$/.exec(t)?.[1];
  return types.some((t) => {
    const version = otherVersion(t);
    return version === undefined || version === '1';
  });
}

/** An error reply in the language the request asks for (Accept-Language). */
const sendError = (reply: FastifyReply, refusal: Refusal) => {
  // A 429 of an operation (sign-in's lock-out) says when to try again, as the rate limit's does.
  const retryAfter = retryAfterOf(refusal);
  if (retryAfter !== undefined) reply.header('Retry-After', retryAfter);
  return sendErrorReply(reply, errorReply('rest', { ...refusal, extensions: undefined }, requestLocale(reply.request.headers)));
};

async function handle(deps: RestDeps, rows: Row[], request: FastifyRequest, reply: FastifyReply) {
  try {
    if (!acceptable(request.headers.accept)) {
      throw new RestFailure({ code: 'not_acceptable' });
    }
    const query = (request.query ?? {}) as Record<string, unknown>;
    const row = rows.length === 1 && !rows[0].when ? rows[0] : rows.find((r) => !r.when || r.when.every(([k, v]) => query[k] === v));
    if (!row) throw new RestFailure({ code: 'route_not_found', message: `No route matches ${request.method} on this path` });
    const { compiled } = row;
    const body = request.body;
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body)))
      throw badRequest('base', 'The body must be an object of parameters');
    // Rails' params: query, then body, then path parameters win.
    const params: Record<string, unknown> = { ...query, ...((body as object) ?? {}) };
    const pathValues = Object.values((request.params ?? {}) as Record<string, string>);
    row.paramNames.forEach((name, i) => (params[name] = pathValues[i]));
    const form = !!request.headers['content-type'] && !/json/i.test(request.headers['content-type']);

    const ctx = await deps.context(request, !!compiled.route.public);
    if (!compiled.route.public && !ctx.credential) {
      throw new RestFailure({ code: 'unauthenticated' });
    }
    // Who may not run the operation learns nothing of its parameters: 403 before the body is judged.
    const refused = refusal(ctx, row.rule, row.mutation);
    if (refused) throw refused;
    if (row.knownQuery) refuseUnknownParameters(row.knownQuery, query);
    const variables = variablesFor(row.plans, params, form, row.mutation, request);
    if (compiled.paged) return await replyList(deps, compiled, ctx, variables, params, request, reply);
    const result = await run(deps, compiled, ctx, variables, request);
    if (compiled.route.stream) {
      const { headers, body } = await compiled.route.stream.open(result, { ctx, args: variables });
      return reply.code(200).headers(headers).send(body);
    }
    return replyOne(compiled, result, reply, row.paramNames);
  } catch (error) {
    if (error instanceof RestFailure) return sendError(reply, error.refusal);
    // The service's own refusals, and a value the database refused (the input's fault: 400).
    const known = toRestRefusal(error);
    if (known) return sendError(reply, known);
    deps.log(error, request);
    return sendError(reply, { code: 'internal' });
  }
}

/** A read answers only what it understands: a query parameter it does not read is a 400 naming it, not a silent whole list. */
function refuseUnknownParameters(known: ReadonlySet<string>, query: Record<string, unknown>) {
  const unknown = Object.keys(query).filter((name) => !known.has(name));
  if (!unknown.length) return;
  const takes = known.size ? `it reads ${[...known].join(', ')}` : 'it reads none';
  const message = `is not a query parameter of this route (${takes})`;
  throw new RestFailure({ code: 'unknown_parameter', rows: unknown.map((field) => ({ field, code: 'unknown_parameter', message })) });
}

/**
 * An argument as variablesFor reads it: what its type and its row decide, worked out once per row
 * (the same answers the per-request reading gave, as getNullableType and isListType give them).
 */
interface ArgPlan {
  name: string;
  source: CompiledRoute['args'][number]['source'];
  arg: GraphQLArgument;
  /** A list argument (`enrollments: [...]` of the batch). */
  list: boolean;
  /** A create or update: a required value it lacks is `blank` (422). */
  blankIsInvalid: boolean;
  /** The field names' prefix of its problems: a path/query param by its name, a list body under its key. */
  prefix: readonly string[];
  /** A create's resource hash: its input's blank required fields are named with the other problems. */
  namesBlankRequired: boolean;
}

function argPlans(compiled: CompiledRoute, write: boolean): ArgPlan[] {
  const { reply } = compiled.route;
  return compiled.args.map(({ name, source, arg }) => {
    const list = isListType(getNullableType(arg.type));
    return {
      name,
      source,
      arg,
      list,
      blankIsInvalid: write && (reply === 'create' || reply === 'update'),
      prefix: source.from === 'path' || source.from === 'param' ? [source.name] : source.from === 'resource' && list ? [source.key] : [],
      namesBlankRequired: source.from === 'resource' && reply === 'create' && !list,
    };
  });
}

function variablesFor(plans: readonly ArgPlan[], params: Record<string, unknown>, form: boolean, write: boolean, request: FastifyRequest): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  // Every argument's problems, reported together: a write names all it lacks in one reply.
  const found: RestError[] = [];
  const blankRequired: RestError[] = [];
  for (const { name, source, arg, list, blankIsInvalid, prefix, namesBlankRequired } of plans) {
    let raw: unknown;
    switch (source.from) {
      case 'path':
        raw = params[source.name];
        break;
      case 'param': {
        raw = params[source.name];
        const inside = source.within === undefined ? undefined : params[source.within];
        if (raw === undefined && typeof inside === 'object' && inside !== null && !Array.isArray(inside)) raw = (inside as Record<string, unknown>)[source.name];
        break;
      }
      case 'value':
        raw = source.value;
        break;
      case 'header': {
        const given = request.headers[source.name];
        raw = Array.isArray(given) ? given[0] : given;
        break;
      }
      case 'rawBody':
        raw = request.rawBody?.toString('utf8') ?? '';
        break;
      case 'resource': {
        raw = params[source.key];
        // A list argument (`enrollments: [...]` of the batch) takes an array or an index-keyed hash.
        const empty = raw === undefined || raw === null || raw === '' || (typeof raw === 'object' && Object.keys(raw).length === 0 && !source.extra?.length);
        if (empty && !source.optional) throw badRequest(source.key, `param is missing or the value is empty: ${source.key}`);
        if (!empty && (typeof raw !== 'object' || (Array.isArray(raw) && !list)))
          throw badRequest(source.key, list ? `${source.key} must be a list of hashes` : `${source.key} must be a hash of fields`);
        if (list) {
          raw ??= [];
          if (source.adapt) raw = adaptedItems(source.adapt, source.key, raw as Record<string, unknown>[] | Record<string, Record<string, unknown>>);
          break;
        }
        if (source.extra) {
          raw = { ...((raw as object) ?? {}) };
          for (const key of source.extra) if (params[key] !== undefined) (raw as Record<string, unknown>)[key] = params[key];
        }
        raw ??= {};
        if (source.adapt) raw = adapted(source.adapt, raw as Record<string, unknown>);
        break;
      }
    }
    const shaped = shapeInput(raw, arg.type, form);
    // A create or update lacking a required value is invalid (422 naming it); an action's missing parameter stays malformed (400).
    const { problems } = coerceInput(shaped, arg.type, blankIsInvalid);
    // Name the field as the client sent it: a path/query param by its name, a list body under its key.
    for (const p of problems) found.push({ field: restFieldName([...prefix, ...p.path]), code: p.code ?? 'invalid_type', message: p.message });
    if (shaped !== undefined) variables[name] = shaped;
    // A create refused here for a parameter never reaches its resolver's checks: name its input's blank
    // required fields too (declared with RequiredFields), so the one 422 holds every problem.
    if (namesBlankRequired) blankRequired.push(...missingRequired(arg.type, shaped));
  }
  if (found.length && found.every((p) => p.code === 'blank')) found.push(...blankRequired.filter((row) => !found.some((f) => f.field === row.field)));
  if (found.length) {
    // A write's missing value (`blank`), or a well-formed value outside a closed list (Rails' inclusion), is a
    // validation error (422); in a read's filter, or with any other problem, the request is malformed (400).
    const invalid = write && found.every((p) => p.code === 'inclusion' || p.code === 'blank');
    throw new RestFailure({ code: found[0].code, rows: found, status: invalid ? payloadStatus(found.map((p) => p.code)) : raisedStatus('bad_request') });
  }
  return variables;
}

/** The required fields (graphql/required-fields.ts) an input hash leaves blank, as REST names them. */
function missingRequired(type: GraphQLInputType, value: unknown): RestError[] {
  const input = inputObjectOf(type);
  if (!input) return [];
  const hash = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return requiredFieldsOf(input)
    .filter((field) => hash[field] === undefined || hash[field] === null || (typeof hash[field] === 'string' && !(hash[field] as string).trim()))
    .map((field) => ({ field: restFieldName([field]), code: 'blank', message: errorCodes.blank.message }));
}

/** An older form of a resource turned into today's (route-table.ts, Adapt); its own problems are a 422 naming them. */
function adapted(adapt: Adapt, raw: Record<string, unknown>): Record<string, unknown> {
  const { hash, problems } = adapt.apply(raw);
  if (problems?.length) {
    const rows = problems.map((p) => ({ field: p.field, code: p.code, message: p.message ?? errorCodes[p.code].message }));
    throw new RestFailure({ code: rows[0].code, rows, status: payloadStatus(problems.map((p) => p.code)) });
  }
  return hash;
}

/** Each item of a list body adapted (`students[3]` of the onboarding batch); every item's problems in one 422 naming its index. */
function adaptedItems(adapt: Adapt, key: string, raw: Record<string, unknown>[] | Record<string, Record<string, unknown>>) {
  const problems: { field: string; code: ErrorCode; message?: string }[] = [];
  const adaptOne = (item: unknown, index: string) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item; // shaping names it
    const { hash, problems: found } = adapt.apply(item as Record<string, unknown>);
    for (const p of found ?? []) problems.push({ ...p, field: `${key}[${index}].${p.field}` });
    return hash;
  };
  const items = Array.isArray(raw) ? raw.map((item, i) => adaptOne(item, String(i))) : Object.fromEntries(Object.entries(raw).map(([i, item]) => [i, adaptOne(item, i)]));
  if (problems.length) {
    const rows = problems.map((p) => ({ field: p.field, code: p.code, message: p.message ?? errorCodes[p.code].message }));
    throw new RestFailure({ code: rows[0].code, rows, status: payloadStatus(problems.map((p) => p.code)) });
  }
  return items;
}

const CHECKED: ExecuteOptions = { variablesChecked: true };

async function run(deps: RestDeps, compiled: CompiledRoute, ctx: Context, variables: Record<string, unknown>, request: FastifyRequest) {
  // The variables were checked against their types by variablesFor (coerceInput) or are the router's own page numbers.
  const result = await deps.execute(compiled.document, undefined, ctx, variables, CHECKED);
  if (result.errors?.length) {
    const mapped = toRestRefusal(result.errors[0]);
    if (mapped) throw new RestFailure(mapped);
    deps.log(result.errors[0].originalError ?? result.errors[0], request);
    throw new RestFailure({ code: 'internal' });
  }
  return (result.data as { result: any }).result;
}

/** A browser asking for a page (its Accept names text/html), not an API client (JSON, anything, nothing). */
const wantsPage = (accept: string | undefined) => !!accept && /(^|,)\s*text\/html\b/i.test(accept);

/**
 * A path parameter merged into the resource (`extra`: the module of `POST /course_modules/:course_module_id/course_contents`)
 * is a path's id like any other: when the operation finds nothing of the school by it, the reply is a 404, not a 422.
 */
function missingPathParent(compiled: CompiledRoute, errors: readonly { field: readonly (string | number)[]; code: string }[], paramNames: string[]): string | null {
  const merged = compiled.args.flatMap(({ source }) => (source.from === 'resource' ? (source.extra ?? []) : [])).filter((key) => paramNames.includes(key));
  const error = errors.find((e) => e.code === 'not_found' && merged.includes(restFieldName(e.field)));
  return error ? restFieldName(error.field) : null;
}

function replyOne(compiled: CompiledRoute, result: any, reply: FastifyReply, paramNames: string[] = []) {
  const { route } = compiled;
  if (route.page && wantsPage(reply.request.headers.accept)) {
    return sendPage(reply, route.page(result, reply.request));
  }
  const rendered = compiled.render(result);
  let resource: any = rendered;
  if (compiled.shape === 'payload') {
    if (result.errors.length) {
      const parent = missingPathParent(compiled, result.errors, paramNames);
      if (parent) return sendError(reply, { code: 'not_found', message: `No record matches ${parent}` });
      return sendError(reply, userErrorsRefusal(result.errors));
    }
    // One resource in the payload is the reply; several (the wizard) reply together.
    const keys = compiled.payloadKeys.map(snake);
    resource = keys.length === 1 ? rendered[keys[0]] : Object.fromEntries(keys.map((k) => [k, rendered[k]]));
  }
  if (route.reply === 'destroy') return reply.code(204).send();
  if (route.lift && resource?.[route.lift]) resource = { ...resource[route.lift], ...resource };
  // The Location names the resource, or the first of several (the wizard's school).
  const located = compiled.shape === 'payload' && compiled.payloadKeys.length > 1 ? resource?.[snake(compiled.payloadKeys[0])] : resource;
  // A create row may report that nothing was created (an idempotent repeat, a dry run): 200.
  const created = route.reply === 'create' && !(route.createdFlag && resource?.[route.createdFlag] === false);
  if (route.location && located?.id !== undefined && located?.id !== null && (created || route.reply === 'update')) {
    reply.header('location', route.location.replace(':id', String(located.id)));
  }
  return reply.code(created ? 201 : 200).send(resource);
}

/** A list: one page with `page`, else the whole list, streamed page by page so memory stays bounded. */
async function replyList(
  deps: RestDeps,
  compiled: CompiledRoute,
  ctx: Context,
  variables: Record<string, unknown>,
  params: Record<string, unknown>,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const pageParam = params.page;
  const paged = pageParam !== undefined && pageParam !== '';
  const url = new URL(request.url, 'http://x');
  const link = (page: number, perPage: number) => {
    url.searchParams.set('page', String(page));
    url.searchParams.set('per_page', String(perPage));
    return `${url.pathname}${url.search}`;
  };
  const wrap = (json: string) => (compiled.route.wrap ? `{"${compiled.route.wrap}":${json}}` : json);
  if (paged) {
    const pageVars = pageVariables(pageParam, params.per_page);
    const first = await run(deps, compiled, ctx, { ...variables, ...pageVars }, request);
    const total: number = first.totalCount;
    const lastPage = Math.max(1, Math.ceil(total / pageVars.perPage));
    const links = [`<${link(1, pageVars.perPage)}>; rel="first"`, `<${link(lastPage, pageVars.perPage)}>; rel="last"`];
    if (pageVars.page < lastPage) links.push(`<${link(pageVars.page + 1, pageVars.perPage)}>; rel="next"`);
    if (pageVars.page > 1) links.push(`<${link(Math.min(pageVars.page - 1, lastPage), pageVars.perPage)}>; rel="prev"`);
    return reply
      .code(200)
      .headers({ 'x-total-count': String(total), 'x-page': String(pageVars.page), 'x-per-page': String(pageVars.perPage), link: links.join(', ') })
      .type('application/json; charset=utf-8')
      .send(wrap(JSON.stringify(compiled.render(first.nodes))));
  }
  const firstPage = await run(deps, compiled, ctx, { ...variables, first: MAX_PAGE_SIZE }, request);
  const total: number = firstPage.totalCount;
  reply.headers({
    'x-total-count': String(total),
    'x-page': '1',
    'x-per-page': String(total),
    link: `<${url.pathname}${url.search}>; rel="first", <${url.pathname}${url.search}>; rel="last"`,
  });
  reply.code(200).type('application/json; charset=utf-8');
  if (!firstPage.pageInfo.hasNextPage) return reply.send(wrap(JSON.stringify(compiled.render(firstPage.nodes))));
  async function* pages() {
    let page = firstPage;
    let separator = '';
    yield compiled.route.wrap ? `{"${compiled.route.wrap}":[` : '[';
    for (;;) {
      for (const node of compiled.render(page.nodes)) {
        yield separator + JSON.stringify(node);
        separator = ',';
      }
      if (!page.pageInfo.hasNextPage) break;
      page = await run(deps, compiled, ctx, { ...variables, first: MAX_PAGE_SIZE, after: page.pageInfo.endCursor }, request);
    }
    yield compiled.route.wrap ? ']}' : ']';
  }
  return reply.send(Readable.from(pages()));
}

/** page and per_page as whole numbers; graphql/pagination.ts' numberedPage decides the rest (default, bounds). */
function pageVariables(page: unknown, perPage: unknown): { page: number; perPage: number } {
  const asInt = (v: unknown, name: string) => {
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    if (typeof v === 'string' && /^\d+$/.test(v.trim())) return Number(v.trim());
    throw badRequest(name, `${name} must be a whole number`);
  };
  // Checked here, before the query runs, so that a larger page is refused rather than failing as a variable.
  const asked = numberedPage(asInt(page, 'page'), perPage === undefined || perPage === '' ? null : asInt(perPage, 'per_page'));
  if ('field' in asked) throw badRequest(asked.field === 'perPage' ? 'per_page' : 'page', asked.message);
  return asked;
}
