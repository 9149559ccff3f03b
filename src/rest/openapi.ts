import {
  getNamedType,
  getNullableType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';
import { DEFAULT_PER_PAGE, MAX_PAGE_SIZE } from '../graphql/pagination.js';
import { requiredFieldsOf } from '../graphql/required-fields.js';
import { compileRoute, type CompiledRoute, restFields } from './compile.js';
import { camel, snake } from './names.js';
import { exampleOf } from './openapi-examples.js';
import { operationNames, tagsOf } from './openapi-names.js';
import type { Method, Route } from './route-table.js';

/**
 * The OpenAPI 3.1 description of the REST layer, derived from the route rows and the GraphQL
 * schema only: a row's path and method, the root field it runs, where its arguments come from and
 * the shape of its reply. Schemas are named after the GraphQL types. The output is deterministic
 * (paths, methods and components in a fixed order) so the committed file diffs cleanly.
 */
type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

const METHOD_ORDER: Method[] = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];
const ERROR_SCHEMA = 'ErrorReply';
const ref = (name: string, section = 'schemas') => ({ $ref: `#/components/${section}/${name}` });
const byKey = <T>(entries: [string, T][]) => Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Each error status: its component name, description, and the field, code and message of its example. */
const errorResponses = {
  400: ['BadRequest', 'Malformed request: bad JSON, a wrong type, an unknown enum value, a missing resource key, a bad page, a query parameter a read does not take (`unknown_parameter`).', 'base', 'bad_request', 'The request is malformed'],
  401: ['Unauthorized', 'No valid credential.', 'base', 'unauthenticated', 'A valid credential is required'],
  403: ['Forbidden', 'The credential may not do this.', 'base', 'forbidden', 'This credential may not do that'],
  404: ['NotFound', 'No such object (or it belongs to another school).', 'base', 'not_found', 'Record not found'],
  409: ['Conflict', 'A uniqueness conflict, or the object is still in use.', 'email', 'taken', 'has already been taken'],
  422: ['UnprocessableEntity', 'The object is invalid; nothing was changed.', 'name', 'blank', "can't be blank"],
} as const;

const errorExample = (name: string) => {
  const [, , field, error, message] = Object.values(errorResponses).find(([n]) => n === name)!;
  return { errors: { [field]: [message] }, details: { [field]: [{ error }] } };
};

/** JSON Schemas of the GraphQL scalars REST carries; other custom scalars are left unconstrained. */
const scalarSchemas: Record<string, JsonSchema> = {
  ID: { type: 'integer' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  Date: { type: 'string', format: 'date' },
  EmailAddress: { type: 'string', format: 'email' },
  URL: { type: 'string', format: 'uri' },
  UUID: { type: 'string', format: 'uuid' },
  NonNegativeInt: { type: 'integer', minimum: 0 },
  SafeInt: { type: 'integer' },
  PositiveInt: { type: 'integer', minimum: 1 },
  NonNegativeFloat: { type: 'number', minimum: 0 },
  JSONObject: { type: 'object' },
  JSON: {},
};

/** Adds `null` to a schema (3.1 style); an unconstrained schema already admits it. */
function orNull(schema: JsonSchema): JsonSchema {
  if ('$ref' in schema) return { anyOf: [schema, { type: 'null' }] };
  if (typeof schema.type !== 'string') return schema;
  const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}

/** The fields REST renders of a type: the runner's own rule (rest/compile.ts). */
const renderedFields = (type: GraphQLNamedType) => (isObjectType(type) ? restFields(type) : []);

const describe = (schema: JsonSchema, thing: { description?: string | null; deprecationReason?: string | null }) => {
  const out = { ...schema };
  if (thing.description) out.description = thing.description;
  if (thing.deprecationReason) out.deprecated = true;
  return out;
};

class Builder {
  readonly schemas = new Map<string, JsonSchema>();

  constructor(readonly schema: GraphQLSchema) {
    if (schema.getType(ERROR_SCHEMA)) throw new Error(`OpenAPI: the GraphQL type ${ERROR_SCHEMA} clashes with the REST error schema`);
  }

  leaf(type: GraphQLNamedType): JsonSchema {
    if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.value) };
    const known = scalarSchemas[type.name];
    if (known) return { ...known };
    return isScalarType(type) && type.description ? { description: type.description } : {};
  }

  /** A GraphQL output type as REST renders it: objects by reference to their leaf fields. */
  output(type: GraphQLOutputType, nullable = true): JsonSchema {
    if (isNonNullType(type)) return this.output(type.ofType, false);
    let schema: JsonSchema;
    if (isListType(type)) schema = { type: 'array', items: this.output(type.ofType) };
    else if (isObjectType(type)) schema = ref(this.object(type.name));
    else schema = this.leaf(type as GraphQLNamedType);
    return nullable ? orNull(schema) : schema;
  }

  object(name: string): string {
    if (this.schemas.has(name)) return name;
    const type = this.schema.getType(name)!;
    this.schemas.set(name, {});
    const fields = renderedFields(type);
    this.schemas.set(name, {
      ...(type.description ? { description: type.description } : {}),
      type: 'object',
      required: fields.map((f) => snake(f.name)),
      properties: Object.fromEntries(fields.map((f) => [snake(f.name), describe(this.output(f.type), f)])),
    });
    return name;
  }

  /** A GraphQL input type as REST accepts it: snake_case keys, nested inputs by reference. */
  input(type: GraphQLInputType, nullable = true): JsonSchema {
    if (isNonNullType(type)) return this.input(type.ofType, false);
    let schema: JsonSchema;
    if (isListType(type)) schema = { type: 'array', items: this.input(type.ofType) };
    else if (isInputObjectType(type)) schema = ref(this.inputObject(type.name));
    else schema = this.leaf(type);
    return nullable ? orNull(schema) : schema;
  }

  inputObject(name: string): string {
    if (this.schemas.has(name)) return name;
    const type = this.schema.getType(name);
    if (!isInputObjectType(type)) throw new Error(`OpenAPI: ${name} is not an input type`);
    this.schemas.set(name, {});
    const fields = Object.values(type.getFields());
    const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => snake(f.name));
    this.schemas.set(name, {
      ...(type.description ? { description: type.description } : {}),
      type: 'object',
      ...(required.length ? { required } : {}),
      properties: Object.fromEntries(
        fields.map((f) => {
          const schema = describe(this.input(f.type), f);
          if (f.defaultValue !== undefined) schema.default = f.defaultValue;
          return [snake(f.name), schema];
        }),
      ),
    });
    return name;
  }
}

/** `/x/:id?find_by=code` → `/x/{0}` and the parameter names (`id`), filled in by `fill`. */
function pathTemplate(path: string): { template: string; names: string[] } {
  const names: string[] = [];
  const clean = path.split('?')[0].replace(/\/+$/, '') || '/';
  const template = clean.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => `{${names.push(name) - 1}}`);
  return { template, names };
}

const fill = (template: string, names: string[]) => template.replace(/\{(\d+)\}/g, (_, i: string) => `{${names[Number(i)]}}`);

interface Entry {
  key: string;
  method: Method;
  compiled: CompiledRoute;
  field: GraphQLField<unknown, unknown>;
  /** The row's own names of the positional path parameters, and the names the path key uses. */
  rowNames: string[];
  keyNames: string[];
  /** The row's `when` as `name=value` (`find_by=code`), or '' for a row without one. */
  choice: string;
}

export function buildOpenApi(schema: GraphQLSchema, routes: readonly Route[]): object {
  const builder = new Builder(schema);

  // Rows of one path template share a path key named after its first plain row's parameters.
  // Rows told apart by a query value (`when`) are choices of one operation: the query parameter
  // is an enum, the replies and bodies are documented per choice (no query strings in path keys).
  const templates = new Map<string, string[]>();
  for (const route of routes) {
    const { template, names } = pathTemplate(route.path);
    if (!route.when && !templates.has(template)) templates.set(template, names);
  }
  const groups = new Map<string, Entry[]>();
  for (const route of routes) {
    const compiled = compileRoute(schema, route);
    const { template, names } = pathTemplate(route.path);
    const keyNames = templates.get(template) ?? names;
    const key = fill(template, keyNames);
    const choice = Object.entries(route.when ?? {})
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const queryField = schema.getQueryType()?.getFields()[route.field];
    const field = (queryField ?? schema.getMutationType()!.getFields()[route.field])!;
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      const group = groups.get(`${method} ${key}`) ?? [];
      const other = group.find((e) => e.choice === choice);
      if (other) throw new Error(`OpenAPI: rows ${other.compiled.route.field} and ${route.field} both answer ${method} ${key}${choice ? `?${choice}` : ''}`);
      // The plain row (no `when`) leads its group: its operationId, summary and parameter names.
      const entry: Entry = { key, method, compiled, field, rowNames: names, keyNames, choice };
      groups.set(`${method} ${key}`, choice ? [...group, entry] : [entry, ...group]);
    }
  }

  const leads = [...groups.values()].map((g) => g[0]);
  const named = new Map(leads.map((e) => [e, { method: e.method, key: e.key, route: e.compiled.route }]));
  const names = operationNames([...named.values()]);
  const tags = tagsOf(leads.map((e) => e.key));
  const paths = new Map<string, Map<Method, Operation>>();
  for (const group of groups.values()) {
    const [lead] = group;
    const ops = paths.get(lead.key) ?? new Map<Method, Operation>();
    paths.set(lead.key, ops);
    const naming = { ...names.get(named.get(lead)!)!, tag: tags.get(lead.key)! };
    // A choice's own name is the lead's: the one operation the choices make.
    const choices = group.map((entry) => ({ entry, op: operation(builder, entry, naming) }));
    ops.set(lead.method, choices.length === 1 ? choices[0].op : mergeChoices(choices));
  }

  const components = {
    schemas: {} as Record<string, JsonSchema>,
    responses: Object.fromEntries(
      Object.values(errorResponses).map(([name, description]) => [
        name,
        { description, content: { 'application/json': { schema: ref(ERROR_SCHEMA), example: errorExample(name) } } },
      ]),
    ),
    headers: {
      Location: { description: 'The show path of the resource.', schema: { type: 'string', format: 'uri-reference' } },
      'X-Total-Count': { description: 'How many objects the whole list holds.', schema: { type: 'integer', minimum: 0 } },
      'X-Page': { description: 'The page returned (1 for a whole list).', schema: { type: 'integer', minimum: 1 } },
      'X-Per-Page': { description: 'The page size (the whole count for a whole list).', schema: { type: 'integer', minimum: 0 } },
      Link: { description: 'RFC 8288 links: first, last, and next/prev where they exist.', schema: { type: 'string' } },
    },
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description:
          'Send `Authorization: Bearer <token>`. The Rails forms `Authorization: Token token="<token>"` and `Token token=<token>` carry the same token and are accepted too.',
      },
    },
  };
  components.schemas = byKey([
    ...builder.schemas.entries(),
    [
      ERROR_SCHEMA,
      {
        description: "Every error status: messages and codes by field (snake_case, `base` for the object as a whole).",
        type: 'object',
        required: ['errors', 'details'],
        properties: {
          errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          details: {
            type: 'object',
            additionalProperties: {
              type: 'array',
              items: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
            },
          },
        },
      },
    ],
  ]);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Learning platform REST API',
      version: '1',
      // The project declares no open-source licence (package.json is private).
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description: [
        'The REST compatibility layer: every operation runs one GraphQL field (`x-graphql-field`) of the schema served at /graphql.',
        'Every path also answers under the `/v1` and `/api` prefixes and with an optional `.json` suffix (`/v1/schools/12.json`).',
        'Where the spec tells operations of one path apart by a query value (`/enrollments/{id}?find_by=code`, `/media/{id}?action=reprocess`), that value is an enum query parameter of the one operation, and its bodies, replies and examples are given per choice.',
        'Bodies are wrapped in the resource key and may be JSON, `application/x-www-form-urlencoded` or `multipart/form-data` with bracket names (`school[name]=x`).',
        `Lists are whole unless \`page\` is given; with it \`per_page\` defaults to ${DEFAULT_PER_PAGE} and may be at most ${MAX_PAGE_SIZE}.`,
        'Errors have one shape for every status (`ErrorReply`).',
      ].join('\n\n'),
    },
    // The app strips a `/v1` (or `/api`) prefix from every URL (app.ts normaliseUrl): both bases serve the same API.
    servers: [
      { url: '/', description: 'This service.' },
      { url: '/v1', description: 'This service, version 1 named in the path.' },
    ],
    security: [{ bearer: [] }],
    tags: tagList(leads, tags),
    paths: byKey(
      [...paths].map(([key, ops]) => [
        key,
        Object.fromEntries(METHOD_ORDER.filter((m) => ops.has(m)).map((m) => [m.toLowerCase(), ops.get(m)!])),
      ]),
    ),
    components,
  };
}

function operation(builder: Builder, entry: Entry, naming: { operationId: string; summary: string; tag: string }): Operation {
  const { compiled, field } = entry;
  const { route } = compiled;
  const parameters: JsonSchema[] = [];

  entry.rowNames.forEach((rowName, i) => {
    const source = compiled.args.find((a) => a.source.from === 'path' && a.source.name === rowName);
    const schema = source ? builder.input(source.arg.type, false) : /(^|_)id$/.test(rowName) ? { type: 'integer' } : { type: 'string' };
    parameters.push({ name: entry.keyNames[i], in: 'path', required: true, schema });
  });
  for (const { source, arg } of compiled.args) {
    if (source.from === 'param')
      parameters.push(describe({ name: source.name, in: 'query', required: isNonNullType(arg.type), schema: builder.input(arg.type, false) }, arg));
    if (source.from === 'header') parameters.push(describe({ name: source.name, in: 'header', required: isNonNullType(arg.type), schema: builder.input(arg.type, false) }, arg));
  }
  for (const [name, value] of Object.entries(route.when ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)))
    parameters.push({ name, in: 'query', required: true, schema: { type: 'string', enum: [value] } });
  if (compiled.paged) {
    parameters.push(
      { name: 'page', in: 'query', required: false, description: 'Page number, from 1; without it the list is whole.', schema: { type: 'integer', minimum: 1 } },
      {
        name: 'per_page',
        in: 'query',
        required: false,
        description: 'Page size, only with page.',
        schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PER_PAGE },
      },
    );
  }

  // Bodies: a resource hash under its key (plus `extra` top-level params), or the whole params object.
  let body: JsonSchema | undefined;
  for (const { source, arg } of compiled.args) {
    if (source.from === 'resource') {
      const input = getNamedType(arg.type);
      const inputFields = isInputObjectType(input) ? input.getFields() : {};
      let hash = builder.input(arg.type, false);
      // An older form of the hash (route-table.ts, Adapt) takes its own fields besides the input's.
      if (source.adapt) {
        const older = { type: 'object', properties: source.adapt.fields };
        // A list body (the onboarding batch) adapts each item.
        const list = getNullableType(arg.type);
        hash = isListType(list) ? { type: 'array', items: { allOf: [builder.input(list.ofType, false), older] } } : { allOf: [hash, older] };
      }
      // A create names the input's required fields (graphql/required-fields.ts): a body without them is a 422 naming each.
      // An older form (adapt) renames fields, so its hash keeps the input's own description.
      const required = route.reply === 'create' && !source.adapt && isInputObjectType(input) ? requiredFieldsOf(input).map(snake) : [];
      if (required.length) {
        const list = getNullableType(arg.type);
        // `allOf` beside `required`: client generators read it as the input with these fields required (openapi-typescript's WithRequired).
        hash = isListType(list) ? { ...hash, items: { allOf: [hash.items as JsonSchema], required } } : { allOf: [hash], required };
      }
      const properties: Record<string, JsonSchema> = { [source.key]: hash };
      // Extras the input has no field for are dropped by the router, so they are not described.
      for (const extra of source.extra ?? []) {
        const f = inputFields[camel(extra)];
        if (f) properties[extra] = describe(builder.input(f.type), f);
      }
      body = { type: 'object', ...(source.optional ? {} : { required: [source.key] }), properties };
    }
  }

  // A body read raw (a signed callback) is JSON only: its bytes are what the signature covers.
  const raw = compiled.args.find((a) => a.source.from === 'rawBody')?.source;
  const op: Operation = {
    operationId: naming.operationId,
    tags: [naming.tag],
    summary: naming.summary,
    ...(field.description ? { description: field.description } : {}),
    'x-graphql-field': route.field,
  };
  if (parameters.length) op.parameters = parameters;
  if (raw?.from === 'rawBody') op.requestBody = { required: true, content: { 'application/json': { schema: raw.schema } } };
  else if (body) {
    const content = { schema: body };
    op.requestBody = {
      required: !compiled.args.some((a) => a.source.from === 'resource' && a.source.optional),
      content: { 'application/json': content, 'application/x-www-form-urlencoded': content, 'multipart/form-data': content },
    };
    // A route that takes CSV (Route.csv): a header row naming the columns, then one item a line.
    if (route.csv)
      (op.requestBody as { content: Record<string, unknown> }).content['text/csv'] = {
        schema: { type: 'string', description: `A header row naming the columns (the fields of one item of \`${route.csv.key}\`), then one item a line; read as it streams.` },
      };
  }
  op.responses = responses(builder, entry);
  // An example of every body and reply, built from its schema.
  const schemas = Object.fromEntries(builder.schemas);
  const bodies = [op.requestBody, ...Object.values(op.responses as Record<string, unknown>)] as { content?: Record<string, JsonSchema> }[];
  for (const media of bodies.flatMap((b) => Object.values(b?.content ?? {})))
    if (!('example' in media)) media.example = exampleOf(media.schema as JsonSchema, schemas);
  // Every operation needs the document's bearer credential, except the public ones.
  if (route.public) op.security = [];
  return op;
}

/** Each tag, described by the paths it groups and the resources its operations reply with. */
function tagList(entries: Entry[], tags: Map<string, string>): { name: string; description: string }[] {
  const byTag = new Map<string, { prefixes: Set<string>; types: Set<string> }>();
  for (const entry of entries) {
    const name = tags.get(entry.key)!;
    const tag = byTag.get(name) ?? { prefixes: new Set(), types: new Set() };
    byTag.set(name, tag);
    tag.prefixes.add(`/${entry.key.split('/').filter(Boolean)[0] ?? ''}`);
    // A streamed row replies with its media type (a certificate's `application/pdf`, a CSV), not the object it is made from.
    tag.types.add(entry.compiled.route.stream?.type ?? resourceName(entry));
  }
  return [...byTag]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, { prefixes, types }]) => ({
      name,
      description: `The operations under ${[...prefixes].sort().map((p) => `\`${p}\``).join(' and ')}; they reply with ${[...types].sort().map((t) => `\`${t}\``).join(', ')}.`,
    }));
}

/** The GraphQL type of the object a row replies with (a tag's description names them): the payload's first resource, a connection's node. */
function resourceName({ compiled, field }: Entry): string {
  let type = getNamedType(field.type);
  if (compiled.shape === 'payload') type = getNamedType((type as GraphQLObjectType).getFields()[compiled.payloadKeys[0]].type);
  if (compiled.shape === 'connection') type = getNamedType((type as GraphQLObjectType).getFields().nodes.type);
  return type.name;
}

function responses(builder: Builder, entry: Entry): Record<string, unknown> {
  const { compiled, field } = entry;
  const { route } = compiled;
  const out: Record<string, unknown> = {};
  const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

  if (route.reply === 'destroy') out['204'] = { description: 'Deleted.' };
  // A streamed body (a certificate's PDF, a CSV file) replaces the JSON.
  else if (route.stream)
    out['200'] = {
      description: route.stream.description,
      headers: { 'Content-Disposition': { description: "inline or attachment, with the file's name.", schema: { type: 'string' } } },
      content: { [route.stream.type]: { schema: { type: 'string', contentMediaType: route.stream.type }, example: '' } },
    };
  else if (compiled.shape === 'connection') {
    const nodes = (getNamedType(field.type) as GraphQLObjectType).getFields().nodes;
    const list = builder.output(nodes.type, false);
    const schema = route.wrap ? { type: 'object', required: [route.wrap], properties: { [route.wrap]: list } } : list;
    out['200'] = {
      description: 'The list (one page with `page`).',
      headers: Object.fromEntries(['X-Total-Count', 'X-Page', 'X-Per-Page', 'Link'].map((h) => [h, ref(h, 'headers')])),
      content: json(schema),
    };
  } else {
    // A payload's one resource is the reply; several resources reply together under their keys.
    const top = getNamedType(field.type);
    const parts: [string, GraphQLOutputType][] =
      compiled.shape === 'payload'
        ? compiled.payloadKeys.map((k) => [snake(k), (top as GraphQLObjectType).getFields()[k].type])
        : [['', field.type]];
    let schema: JsonSchema =
      parts.length === 1
        ? builder.output(parts[0][1], false)
        : { type: 'object', required: parts.map(([k]) => k), properties: Object.fromEntries(parts.map(([k, t]) => [k, builder.output(t, false)])) };
    // Route.lift: the embedded object's fields are at the top of the reply too.
    const single = parts.length === 1 ? getNamedType(parts[0][1]) : undefined;
    const lifted = route.lift && isObjectType(single) ? single.getFields()[camel(route.lift)] : undefined;
    if (lifted) schema = { allOf: [builder.output(lifted.type, false), schema] };
    const created = route.reply === 'create';
    // The router sends Location only for a reply that is one resource with an id.
    const located = !!route.location && (created || route.reply === 'update') && isObjectType(single) && 'id' in single.getFields();
    // A row with a page answers a browser (Accept: text/html) with it, and others with the JSON.
    const page = route.page ? { 'text/html': { schema: { type: 'string', description: 'A page for a browser (Accept: text/html).' } } } : {};
    out[created ? '201' : '200'] = {
      description: created ? 'Created.' : 'OK.',
      ...(located ? { headers: { Location: ref('Location', 'headers') } } : {}),
      content: { ...json(schema), ...page },
    };
    if (created && route.createdFlag)
      out['200'] = { description: `Nothing created (\`${route.createdFlag}\` is false): an idempotent repeat or a dry run.`, content: json(schema) };
  }

  const statuses: (keyof typeof errorResponses)[] = [400];
  if (!route.public) statuses.push(401, 403);
  // A public route that reads headers is authenticated by them (a signed callback): 401 without a good signature.
  else if (compiled.args.some((a) => a.source.from === 'header')) statuses.push(401);
  if (entry.rowNames.length) statuses.push(404);
  if (compiled.shape === 'payload') statuses.push(409, 422);
  for (const status of statuses) out[status] = ref(errorResponses[status][0], 'responses');
  return out;
}

type Choice = { entry: Entry; op: Operation };
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** One schema for what the choices give: the common one, else `anyOf` the distinct ones. */
const union = (schemas: JsonSchema[]): JsonSchema => {
  const distinct = schemas.filter((s, i) => schemas.findIndex((t) => same(s, t)) === i);
  return distinct.length === 1 ? distinct[0] : { anyOf: distinct };
};
/** How a description names a choice: 'with `find_by=code`', or 'without it' for the plain row. */
const label = (e: Entry) => (e.choice ? `with \`${e.choice}\`` : 'without it');
const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

/**
 * The operations of one method and path that a query value chooses between (`find_by=code`),
 * as one operation: the lead's (the plain row's), plus the query parameter as an enum, path
 * parameters and bodies that are either choice's, and each choice's examples by name.
 */
function mergeChoices(choices: Choice[]): Operation {
  const [lead] = choices;
  const plain = !lead.entry.choice;
  const variants = choices.filter((c) => c.entry.choice);
  const op: Operation = { ...lead.op };
  // What a choice does: the same field with a path parameter read otherwise, or another field.
  const what = ({ entry }: Choice) => {
    const renamed = entry.rowNames.map((n, i) => [lead.entry.keyNames[i], n]).filter(([k, n]) => k !== n);
    if (entry.compiled.route.field !== lead.entry.compiled.route.field || !renamed.length) return `runs \`${entry.compiled.route.field}\``;
    return `reads ${renamed.map(([k, n]) => `\`{${k}}\` as the ${n}`).join(' and ')}`;
  };

  // Parameters: the lead's, widened by the choices'; a choice's own query parameters are optional.
  const params = new Map<string, JsonSchema>();
  for (const { entry, op: o } of choices)
    for (const p of (o.parameters as JsonSchema[] | undefined) ?? []) {
      const id = `${p.in} ${p.name}`;
      const known = params.get(id);
      if (p.in === 'query' && entry.choice && Object.keys(entry.compiled.route.when ?? {}).includes(String(p.name))) continue;
      if (!known) params.set(id, entry === lead.entry ? p : { ...p, required: p.in === 'path', description: `${capital(label(entry))}: ${p.description ?? p.name}` });
      else if (!same(known.schema, p.schema)) params.set(id, { ...known, schema: union([known.schema as JsonSchema, p.schema as JsonSchema]) });
    }
  for (const [i, name] of lead.entry.keyNames.entries()) {
    const meanings = choices.filter((c) => c.entry.rowNames[i] !== name).map((c) => `${label(c.entry)} it is the ${c.entry.rowNames[i]}`);
    const p = params.get(`path ${name}`);
    if (p && meanings.length) p.description = `The ${name}; ${meanings.join('; ')}.`;
  }
  const whens = new Map<string, string[]>();
  for (const { entry } of variants)
    for (const [k, v] of Object.entries(entry.compiled.route.when ?? {})) whens.set(k, [...(whens.get(k) ?? []), v]);
  for (const [name, values] of [...whens].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const runs = variants.map((c) => `\`${c.entry.choice}\` ${what(c)}`).join('; ');
    params.set(`query ${name}`, {
      name,
      in: 'query',
      required: !plain,
      description: `Chooses the operation: ${runs}${plain ? `; without it, runs \`${lead.entry.compiled.route.field}\`` : ''}.`,
      schema: { type: 'string', enum: [...new Set(values)] },
    });
  }
  op.parameters = [...params.values()];

  op.description = [
    lead.op.description,
    ...variants.map((c) => `${capital(label(c.entry))}: ${what(c)}${c.op.description && c.op.description !== lead.op.description ? `. ${c.op.description}` : '.'}`),
  ]
    .filter(Boolean)
    .join('\n\n');
  op['x-graphql-field-by-query'] = Object.fromEntries(variants.map((c) => [c.entry.choice, c.entry.compiled.route.field]));

  // Bodies and replies: each media type's schema is what any choice sends; its examples, one per choice.
  const withBody = choices.filter((c) => c.op.requestBody);
  if (withBody.length) {
    const bodies = withBody.map((c) => c.op.requestBody as { required: boolean; content: Record<string, JsonSchema> });
    const skipped = choices.filter((c) => !c.op.requestBody).map((c) => label(c.entry));
    op.requestBody = {
      ...(skipped.length ? { description: `No body ${skipped.join(', ')}.` } : {}),
      required: !skipped.length && bodies.every((b) => b.required),
      content: mergeContent(withBody.map((c, i) => ({ entry: c.entry, content: bodies[i].content }))),
    };
  }
  const statuses = [...new Set(choices.flatMap((c) => Object.keys(c.op.responses as object)))].sort();
  op.responses = Object.fromEntries(
    statuses.map((status) => {
      const replies = choices
        .map((c) => ({ entry: c.entry, reply: (c.op.responses as Record<string, JsonSchema>)[status] }))
        .filter((r) => r.reply);
      if (replies.every((r) => same(r.reply, replies[0].reply))) return [status, replies[0].reply];
      const content = replies.filter((r) => r.reply.content).map((r) => ({ entry: r.entry, content: r.reply.content as Record<string, JsonSchema> }));
      const headers = Object.assign({}, ...replies.map((r) => r.reply.headers ?? {}));
      const descriptions = [...new Set(replies.map((r) => String(r.reply.description)))];
      return [
        status,
        {
          description: descriptions.length === 1 ? descriptions[0] : replies.map((r) => `${capital(label(r.entry))}: ${r.reply.description}`).join(' '),
          ...(Object.keys(headers).length ? { headers } : {}),
          ...(content.length ? { content: mergeContent(content) } : {}),
        },
      ];
    }),
  );
  return op;
}

function mergeContent(parts: { entry: Entry; content: Record<string, JsonSchema> }[]): Record<string, JsonSchema> {
  const types = [...new Set(parts.flatMap((p) => Object.keys(p.content)))];
  return Object.fromEntries(
    types.map((type) => {
      const media = parts.filter((p) => p.content[type]).map((p) => ({ entry: p.entry, media: p.content[type] }));
      const schema = union(media.map((m) => m.media.schema as JsonSchema));
      const examples = Object.fromEntries(
        media.map((m) => [m.entry.choice || 'default', { summary: m.entry.choice ? `With ${m.entry.choice}` : 'Without a choice', value: m.media.example }]),
      );
      const one = media.every((m) => same(m.media.example, media[0].media.example));
      return [type, one ? { schema, example: media[0].media.example } : { schema, examples }];
    }),
  );
}
