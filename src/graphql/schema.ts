import 'reflect-metadata';
import { GraphQLDateTime } from 'graphql-scalars';
import type { GraphQLSchema } from 'graphql';
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
    scalarsMap: [{ type: Date, scalar: GraphQLDateTime }],
    pubSub: noTopics,
  });
  return installExecutionBudget(installRoleMatrix(markPlainFields(schema), parts.roleMatrix));
}
