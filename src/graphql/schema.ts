import 'reflect-metadata';
import { GraphQLDateTime } from 'graphql-scalars';
import { assertValidSchema, type GraphQLSchema, GraphQLScalarType, isObjectType } from 'graphql';
import { buildSchema, getMetadataStorage, type NonEmptyArray, type PubSub } from 'type-graphql';
import { installRoleMatrix } from '../auth/guard.js';
import type { RoleMatrix } from '../auth/role-matrix.js';
import { markPlainFields } from './asked-columns.js';
import { installExecutionBudget } from './budget.js';
import { checkTextLimits } from './text-limits.js';

/**
 * type-graphql wraps every plain field in an async middleware chain, a promise per field per
 * row (a 500-row list spent most of its time there). This service authorizes root fields only,
 * so a plain data field is marked simple; one that carries roles or middlewares keeps its chain.
 */
function plainFieldsAreSimple() {
  const storage = getMetadataStorage();
  // Roles and field middlewares are attached to fields during the build: read their own registries.
  const guards = [...storage.authorizedFields, ...storage.middlewares];
  const related = (a: Function, b: Function) => a === b || a.prototype instanceof b || b.prototype instanceof a;
  for (const field of storage.fields) {
    const guarded = guards.some((g) => g.fieldName === field.name && related(g.target, field.target));
    field.simple = guarded ? false : (field.simple ?? true);
  }
}

/** Resolver objects of the direct field resolvers, one per class (type-graphql's default container also makes one). */
const instances = new Map<Function, Record<string, (...args: unknown[]) => unknown>>();

/**
 * type-graphql runs every field resolver through a wrapper: it copies the parent row into an instance
 * of the object type's class (convertToType), asks the container for the resolver, walks an empty
 * middleware chain and maps the parameters, per field per row (500 modules, 2,000 relations of a
 * 1,000-lesson tree). A field resolver that takes only its parent row (untyped, or typed as a plain
 * object), the context and the resolve info, with no middleware and no roles, gets the plain call
 * instead; one that takes arguments keeps the wrapper (it converts and checks them). The role matrix
 * and the budget wrap the fields afterwards, as before.
 */
function directFieldResolvers(schema: GraphQLSchema, resolvers: readonly Function[]) {
  const storage = getMetadataStorage();
  const external = storage.fieldResolvers.filter((r) => r.kind === 'external' && resolvers.includes(r.target));
  for (const objectType of storage.objectTypes) {
    const type = schema.getType(objectType.name);
    if (!isObjectType(type)) continue;
    const fields = type.getFields();
    for (const field of objectType.fields ?? []) {
      const handler = external.find((r) => r.getObjectType?.() === field.target && r.methodName === field.name);
      const graphqlField = fields[field.schemaName];
      if (!handler || !graphqlField?.resolve || handler.middlewares?.length || handler.roles) continue;
      const params = [...(handler.params ?? [])].sort((a, b) => a.index - b.index);
      const plain = params.every((p, i) => {
        if (p.index !== i) return false;
        if (p.kind === 'info') return true;
        if (p.kind === 'context') return p.propertyName === undefined;
        // A row typed as a class would be copied into an instance of it: only an untyped or plain-object row is handed over as it is.
        if (p.kind === 'root') return p.propertyName === undefined && (!p.getType || p.getType() === Object);
        return false;
      });
      if (!plain) continue;
      const kinds = params.map((p) => p.kind);
      const { target, methodName } = handler;
      let instance = instances.get(target);
      if (!instance) instances.set(target, (instance = new (target as new () => Record<string, (...args: unknown[]) => unknown>)()));
      const method = instance[methodName];
      if (typeof method !== 'function') continue;
      const self = instance;
      const order = kinds.join(',');
      graphqlField.resolve =
        order === 'root,context'
          ? (root, _args, context) => method.call(self, root, context)
          : order === 'root,context,info'
            ? (root, _args, context, info) => method.call(self, root, context, info)
            : (root, _args, context, info) => method.apply(self, kinds.map((kind) => (kind === 'root' ? root : kind === 'context' ? context : info)));
    }
  }
}

/**
 * A type's fields follow its field resolvers' order in type-graphql's registry, which is the order
 * their classes were loaded in: a test worker that loaded one module early reordered the OpenAPI
 * document's properties (and REST replies' keys). They are put in the resolvers' order, the
 * modules', before the first build fixes each type's fields.
 */
function fieldResolversInOrder(resolvers: readonly Function[]) {
  const storage = getMetadataStorage();
  const rank = (target: Function) => {
    const i = resolvers.findIndex((r) => r === target || r.prototype instanceof target);
    return i === -1 ? resolvers.length : i;
  };
  const ranked = storage.fieldResolvers.map((handler, at) => ({ handler, at, rank: rank(handler.target) }));
  storage.fieldResolvers = ranked.sort((a, b) => a.rank - b.rank || a.at - b.at).map(({ handler }) => handler);
}

/**
 * Subscriptions give their own `subscribe` (fed by events/event-bus.ts, one per app): none names
 * type-graphql topics, but type-graphql asks for a PubSub once any subscription exists.
 */
const noTopics: PubSub = {
  publish() {},
  subscribe() {
    throw new Error('Subscriptions here name no topics: each gives its own subscribe');
  },
};

/**
 * graphql-scalars' DateTime, writing its value as the RFC 3339 string the reply carries rather than
 * as a Date: JSON.stringify calls a Date's toJSON, which takes V8 off its fast path for the whole
 * reply (a course by id serialised about four times slower). Same name, description, reading and text.
 */
const DateTime = new GraphQLScalarType({
  ...GraphQLDateTime.toConfig(),
  serialize: (value) => (GraphQLDateTime.serialize(value) as Date).toISOString(),
});

/**
 * The schema both faces execute, of the given resolvers, with the role matrix and the execution
 * budget installed. The service builds it once per process from its modules (src/service-modules.ts),
 * whose error domains and events are installed first.
 */
export async function buildAppSchema(parts: { resolvers: readonly Function[]; roleMatrix: RoleMatrix }): Promise<GraphQLSchema> {
  plainFieldsAreSimple();
  fieldResolversInOrder(parts.resolvers);
  const schema = await buildSchema({
    resolvers: [...parts.resolvers] as NonEmptyArray<Function>,
    validate: true,
    // Runs instead of class-validator, which is not installed: type-graphql imports it only when no validateFn is given.
    validateFn: checkTextLimits,
    scalarsMap: [{ type: Date, scalar: DateTime }],
    pubSub: noTopics,
    // type-graphql's check runs the whole introspection query over the new schema (a third of the
    // build, and its garbage). The schema is validated here instead, which is what a broken type
    // fails (graphql-js keeps the verdict: every validate and execution reuses it); what only
    // introspection reads (a default value written out) is printed by `npm run schema:write`,
    // whose artifact the tests compare (test/artifacts.test.ts).
    skipCheck: true,
  });
  assertValidSchema(schema);
  markPlainFields(schema);
  directFieldResolvers(schema, parts.resolvers);
  return installExecutionBudget(installRoleMatrix(schema, parts.roleMatrix));
}
