import type { Method, Route } from './route-table.js';

/**
 * What a reader and a client generator call each REST operation, derived from its method, path and
 * reply kind (a row may name its own: Route.operationId, Route.summary):
 *   GET /courses/{course_id}/activities → `listCourseActivities`, "List the activities of a course"
 *   GET /activities/{id}                → `getActivity`, "Get an activity"
 * A path that is not a plain collection or member (an action such as `/courses/{id}/duplicate`) is
 * named after the GraphQL field it runs, which is a verb phrase already (`duplicateCourse`).
 * And the tag of each: the resource of the path's first segment, a singular alias (`/lesson/{id}`)
 * grouped with its plural (`/lessons`).
 */
export interface Naming {
  operationId: string;
  summary: string;
}

export interface NamedOperation {
  method: Method;
  /** The document's path key (`/courses/{course_id}/activities`). */
  key: string;
  route: Route;
}

/** The path's segments, without the `/v1` prefix every path answers under anyway. */
const segments = (key: string) => key.replace(/^\/v1(?=\/)/, '').split('/').filter(Boolean);
const isParam = (segment: string) => segment.startsWith('{');
const words = (segment: string) => segment.replace(/_/g, ' ');
const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+|(?=[A-Z])/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
const article = (noun: string) => `${/^[aeio]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** `activities` → `activity`, `lessons_progresses` → `lessons_progress`; a singular stays as it is. */
export function singular(segment: string): string {
  if (/ies$/.test(segment)) return segment.replace(/ies$/, 'y');
  if (/(ss|ch|sh|x)es$/.test(segment)) return segment.replace(/es$/, '');
  if (/(ss|us)$/.test(segment)) return segment;
  return segment.replace(/s$/, '');
}

/** `duplicateCourse` → "Duplicate course". */
const sentence = (field: string) => {
  const text = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return text[0].toUpperCase() + text.slice(1);
};

/**
 * A path's shape: a collection (`…/{parent_id}/activities`, or `/activities`) or a member
 * (`…/activities/{id}`), with the resource segments that scope it, innermost first; or neither.
 */
function shape(key: string): { kind: 'collection' | 'member'; resource: string; scope: string[] } | undefined {
  const parts = segments(key);
  const last = parts.length - 1;
  let resourceAt: number;
  let kind: 'collection' | 'member';
  if (last >= 0 && isParam(parts[last])) [kind, resourceAt] = ['member', last - 1];
  else [kind, resourceAt] = ['collection', last];
  // Resources and parameters alternate: /a/{a_id}/b/{b_id}/c; two literals in a row is an action.
  for (let i = resourceAt; i >= 0; i -= 2) if (isParam(parts[i]) || (i > 0 && !isParam(parts[i - 1]))) return undefined;
  if (resourceAt < 0) return undefined;
  const scope: string[] = [];
  for (let i = resourceAt - 2; i >= 0; i -= 2) scope.push(singular(parts[i]));
  return { kind, resource: parts[resourceAt], scope };
}

const VERB: Partial<Record<Method, Record<string, [string, string]>>> = {
  GET: { list: ['list', 'List the'], show: ['get', 'Get'] },
  POST: { create: ['create', 'Create'] },
  PUT: { update: ['update', 'Update'] },
  PATCH: { update: ['patch', 'Update'] },
  DELETE: { destroy: ['delete', 'Delete'] },
};

/** The name an operation derives from its method and path, before names that clash are told apart. */
function derive({ method, key, route }: NamedOperation, methodsOfField: Method[]): Naming {
  const path = shape(key);
  const verb = VERB[method]?.[route.reply];
  const fits = path && verb && (route.reply === 'list' || route.reply === 'create' ? path.kind === 'collection' : path.kind === 'member');
  if (path && verb && fits) {
    const plural = route.reply === 'list';
    const noun = plural ? path.resource : singular(path.resource);
    const of = path.scope.length ? `${route.reply === 'create' ? ' in' : ' of'} ${path.scope.map((s) => article(words(s))).join(' of ')}` : '';
    const object = plural ? `${verb[1]} ${words(noun)}` : `${verb[1]} ${article(words(noun))}`;
    return {
      operationId: `${verb[0]}${pascal([...path.scope].reverse().join('_'))}${pascal(noun)}`,
      summary: `${object}${of}${method === 'PATCH' ? ' (PATCH)' : ''}`,
    };
  }
  // A read of a query field named for what it gives (`billingSettings`): get it.
  if (method === 'GET' && (route.reply === 'show' || route.reply === 'list'))
    return { operationId: `get${pascal(route.field)}`, summary: `Get the ${sentence(route.field).toLowerCase()}` };
  // An action: the field's verb phrase, and the method where the field answers several on this path.
  const other = methodsOfField.length > 1 && methodsOfField[0] !== method;
  return {
    operationId: `${route.field}${other ? pascal(method.toLowerCase()) : ''}`,
    summary: `${sentence(route.field)}${other ? ` (${method})` : ''}`,
  };
}

/**
 * Every operation's name, unique across the document. Where two derive the same operationId
 * (`/messages/{id}` and its alias `/message/{id}`; `/school_products` and `/schools/{id}/products`),
 * the shortest path in segments, then the longest in letters (the plural), keeps it and each other
 * adds the path it answers (`getMessageViaMessage`), which depends on its own path alone.
 */
export function operationNames(operations: NamedOperation[]): Map<NamedOperation, Naming> {
  const methods = new Map<string, Method[]>();
  const order: Method[] = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];
  for (const op of operations) {
    const id = `${op.key} ${op.route.field}`;
    methods.set(id, [...(methods.get(id) ?? []), op.method].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
  }
  const derived = new Map<NamedOperation, Naming>(
    operations.map((op) => {
      const own = derive(op, methods.get(`${op.key} ${op.route.field}`)!);
      return [op, { operationId: op.route.operationId ?? own.operationId, summary: op.route.summary ?? own.summary }];
    }),
  );
  const byId = new Map<string, NamedOperation[]>();
  for (const [op, { operationId }] of derived) byId.set(operationId, [...(byId.get(operationId) ?? []), op]);
  const used = new Set(byId.keys());
  for (const [id, clash] of byId) {
    if (clash.length < 2) continue;
    const rank = (op: NamedOperation) => [segments(op.key).length, -op.key.length, op.key] as const;
    clash.sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : 1);
    });
    for (const op of clash.slice(1)) {
      const unique = `${id}Via${pascal(segments(op.key).filter((s) => !isParam(s)).join('_'))}`;
      if (used.has(unique)) throw new Error(`OpenAPI: two operations are both named ${unique}; give one an operationId in its route row`);
      used.add(unique);
      derived.get(op)!.operationId = unique;
    }
  }
  return derived;
}

/** The tag of a path: its first segment's resource (`/courses/{id}/activities` → "Courses"), aliases with their plural. */
export function tagsOf(keys: string[]): Map<string, string> {
  const firsts = new Set(keys.map((k) => segments(k)[0] ?? ''));
  const tags = new Map<string, string>();
  for (const key of keys) {
    const first = segments(key)[0] ?? '';
    const plural = [`${first}s`, `${first}es`].find((p) => firsts.has(p)) ?? first;
    const text = words(plural);
    tags.set(key, text[0].toUpperCase() + text.slice(1));
  }
  return tags;
}
