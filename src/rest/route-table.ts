/**
 * The REST compatibility layer is data: each module lists rows mapping (method, path) to one
 * GraphQL root field, where its arguments come from, and how the reply looks. rest/compile.ts
 * turns every row into a parsed and validated operation at start-up; rest/router.ts runs them.
 */
import type { Readable } from 'node:stream';
import type { ErrorCode } from '../errors/codes.js';
import type { Context } from '../graphql/context.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ArgSource =
  /** A path parameter (`:id`); a secret one (a certificate's code) is `[redacted]` in logs. */
  | { from: 'path'; name: string; secret?: boolean }
  /**
   * A scalar from the merged query and body params (Rails' `params[:name]`); with `within`, also read
   * inside that hash when the top level lacks it (Edools v1's `lessons_progress[lesson_id]`).
   */
  | { from: 'param'; name: string; within?: string }
  /** The resource hash (`{"school": {...}}`), converted to the argument's input type. */
  | { from: 'resource'; key: string; optional?: boolean; extra?: string[]; adapt?: Adapt }
  | { from: 'value'; value: unknown }
  /** A request header (its first value): a signed callback's `webhook-signature`. */
  | { from: 'header'; name: string }
  /**
   * The JSON body exactly as it arrived, as text: what a signature covers (a gateway's callback). The
   * route keeps its raw bytes; `schema` describes it in the OpenAPI document.
   */
  | { from: 'rawBody'; schema: Record<string, unknown> };

/**
 * A resource hash written in an older API's form, turned into today's input before it is shaped:
 * renames and joins (Edools v1's `first_name` + `last_name` → `full_name`) and checks that only the
 * old form has (`password_confirmation` must match: its problems answer 422 naming the field, as
 * Rails' `confirmation` did). Keys it returns are read as the input's snake_case fields, as always.
 */
export interface Adapt {
  apply(hash: Record<string, unknown>): { hash: Record<string, unknown>; problems?: AdaptProblem[] };
  /** The fields the older form adds to the input's, for the OpenAPI document (`first_name`: a JSON schema). */
  fields: Record<string, Record<string, unknown>>;
}
export interface AdaptProblem {
  /** The field as the client wrote it (`password_confirmation`). */
  field: string;
  code: ErrorCode;
  message?: string;
}

export const pathParam = (name = 'id', options: { secret?: boolean } = {}): ArgSource => ({ from: 'path', name, ...options });
export const param = (name: string, options: { within?: string } = {}): ArgSource => ({ from: 'param', name, ...options });
/**
 * `extra` names top-level params merged into the resource (the activity's `exam_questions_attributes`);
 * `adapt` turns an older form of the hash into today's input (see Adapt).
 */
export const resource = (key: string, options: { optional?: boolean; extra?: string[]; adapt?: Adapt } = {}): ArgSource => ({
  from: 'resource',
  key,
  ...options,
});
export const value = (v: unknown): ArgSource => ({ from: 'value', value: v });
export const header = (name: string): ArgSource => ({ from: 'header', name: name.toLowerCase() });
export const rawBody = (schema: Record<string, unknown>): ArgSource => ({ from: 'rawBody', schema });

/**
 * show: 200 with the object. list: a JSON array (paged with page/per_page, else streamed whole).
 * create: 201 + Location. update: 200 + Location of the show path. destroy: 204. action: 200.
 */
export type ReplyKind = 'show' | 'list' | 'create' | 'update' | 'destroy' | 'action';

export interface Route {
  method: Method | Method[];
  path: string;
  /** The GraphQL root field (query or mutation) the route runs. */
  field: string;
  args?: Record<string, ArgSource>;
  reply: ReplyKind;
  /** Query parameters that select this row among rows of the same path (`find_by=code`). */
  when?: Record<string, string>;
  /** The show path of the resource, for Location (`/school_products/:id`). */
  location?: string;
  /** Wraps a list reply in an object (`{"messages": [...]}`). */
  wrap?: string;
  /** Needs no credential. */
  public?: boolean;
  /**
   * For a create row whose operation may create nothing (an idempotent repeat, a dry run): the
   * reply's boolean field that says whether it did. When it is false: 200 and no Location.
   */
  createdFlag?: string;
  /**
   * An HTML page for a browser (a request whose Accept names text/html): made from the operation's
   * result instead of the JSON reply (the one-click unsubscribe link opened from a mail). It may hold
   * no script (the page's CSP: http/security.ts); others get the JSON as usual.
   */
  page?: (result: any, request: PageRequest) => { status: number; html: string };
  /**
   * A route the Edools v1 clients call that the spec leaves out: how its old names map onto today's
   * model (`products` → school products). The README's "Routes beyond the spec" table lists these rows.
   */
  beyondSpec?: string;
  /**
   * The OpenAPI document's name and one-sentence summary of the operation, where the ones derived
   * from its method and path (rest/openapi-names.ts) do not read well.
   */
  operationId?: string;
  summary?: string;
  /**
   * Also accepts a `text/csv` body (body-parsers.ts; other routes answer it 415): its header row names
   * the columns, and each record, turned by `row` into a hash, is an item of the list under `key`.
   */
  csv?: CsvBody;
  /**
   * A body the module streams instead of the JSON reply (a CSV export, a stored file, a certificate's PDF). The operation
   * runs first as for any row (the role matrix, the arguments, tenancy and its 404s: a refusal is the
   * usual JSON error), then `stream.open` gets its result and the request's context and arguments, and
   * returns the headers and a Readable that the router sends: piped with backpressure (read no faster
   * than the client takes it), destroyed when the client goes away (its `finally` releases a cursor).
   */
  stream?: StreamBody;
  /**
   * An embedded object of the reply (`@Extensions({ rest: 'embed' })`) whose fields are also given at the
   * top of the reply, beside the reply's own (which win a clash): Edools v1's sign-in answered the person
   * itself (`id`, `email`) with its `credentials`, and its clients read them there.
   */
  lift?: string;
}

export interface StreamBody {
  /** The reply's media type, for the OpenAPI document (`text/csv`). */
  type: string;
  description: string;
  open(result: any, request: StreamRequest): Promise<{ headers: Record<string, string>; body: Readable }>;
}

/** What a streamed body may read of its request: the context the operation ran in and its arguments (GraphQL variables). */
export interface StreamRequest {
  ctx: Context;
  args: Record<string, unknown>;
}

export interface CsvBody {
  key: string;
  row: (record: Record<string, string>) => Record<string, unknown>;
}

/** What a page may read of its request. */
export interface PageRequest {
  headers: Record<string, string | string[] | undefined>;
}

/** The arguments of a read scoped by the school product or the enrollment in its path. */
export const ofSchoolProduct = { args: { schoolProductId: pathParam('school_product_id') } };
export const ofEnrollment = { args: { enrollmentId: pathParam('enrollment_id') } };

/**
 * Row builders for the usual shapes, one line each. `location` is the show path (`/courses/:id`);
 * `args` adds or overrides arguments (a parent from the path: `{ courseId: pathParam('course_id') }`).
 */
type Extra = Partial<Pick<Route, 'when' | 'wrap' | 'public' | 'createdFlag' | 'page' | 'operationId' | 'summary'>> & { args?: Record<string, ArgSource> };
/** The scope argument a path's prefix names: a school product's or an enrollment's, or none. */
function scopeOfPath(path: string): Extra {
  if (path.startsWith('/school_products/:school_product_id/')) return ofSchoolProduct;
  if (path.startsWith('/enrollments/:enrollment_id/')) return ofEnrollment;
  return {};
}

export const rows = {
  list: (path: string, field: string, extra: Extra = {}): Route => ({ method: 'GET', path, field, reply: 'list', ...extra }),
  show: (path: string, field: string, extra: Extra = {}): Route => ({
    method: 'GET', path, field, reply: 'show', ...extra, args: { id: pathParam(), ...extra.args },
  }),
  create: (path: string, field: string, key: string, location: string, extra: Extra = {}): Route => ({
    method: 'POST', path, field, reply: 'create', location, ...extra, args: { input: resource(key), ...extra.args },
  }),
  update: (path: string, field: string, key: string, location: string, extra: Extra = {}): Route => ({
    method: ['PUT', 'PATCH'], path, field, reply: 'update', location, ...extra, args: { id: pathParam(), input: resource(key), ...extra.args },
  }),
  destroy: (path: string, field: string, extra: Extra = {}): Route => ({
    method: 'DELETE', path, field, reply: 'destroy', ...extra, args: { id: pathParam(), ...extra.args },
  }),
  /**
   * The usual five rows of a resource, in this order: list and create at `collection` (with `parent`'s
   * arguments, the parent from the path), show, update and destroy at `member`. The fields are `<plural>`,
   * `create<Field>`, `<field>`, `update<Field>` and `delete<Field>`; the resource key is the field in snake_case.
   */
  resource: (collection: string, member: string, field: string, plural: string, parent: Extra = {}): Route[] => {
    const name = field.charAt(0).toUpperCase() + field.slice(1);
    const key = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    return [
      rows.list(collection, plural, parent),
      rows.create(collection, `create${name}`, key, member, parent),
      rows.show(member, field),
      rows.update(member, `update${name}`, key, member),
      rows.destroy(member, `delete${name}`),
    ];
  },
  /**
   * The reads of a resource that also answers under a school product and under an enrollment (the
   * scope of the result): the paths as the spec writes them, each one's scope argument read from its prefix.
   */
  scopedReads: (lists: string[], plural: string, shows: string[], field: string): Route[] => [
    ...lists.map((path) => rows.list(path, plural, scopeOfPath(path))),
    ...shows.map((path) => rows.show(path, field, scopeOfPath(path))),
  ],
  /** A special action on the resource at `:id` (`/orders/:id/cancel`): 200 with what it returns. */
  action: (method: Method | Method[], path: string, field: string, extra: Extra = {}): Route => ({
    method, path, field, reply: 'action', ...extra, args: { id: pathParam(), ...extra.args },
  }),
};

/** Marks rows as routes beyond the spec (Route.beyondSpec), with the note the README shows for them. */
export const beyondSpec = (note: string, routes: Route[]): Route[] => routes.map((route) => ({ ...route, beyondSpec: note }));
