import { getMetadataStorage } from 'type-graphql';
import { type ModuleRules, type RoleMatrix, roleMatrixOf } from '../auth/role-matrix.js';
import type { ErrorDomain } from '../graphql/error-codes.js';
import { installErrorDomains } from '../graphql/errors.js';
import type { Route } from '../rest/route-table.js';
import { type EventDefinitions, installEventCatalog } from './events/catalog.js';

/**
 * What a module is to the service, in one declaration (its `index.ts`): the service's schema, role
 * matrix, error domains, event catalog and route table are assembled from these, so adding a
 * resource touches only its module's folder (src/modules/README.md).
 */
export interface ModuleDeclaration {
  /** Its folder: src/modules/<name>/. */
  readonly name: string;
  /** Its type-graphql resolver classes. */
  readonly resolvers: readonly Function[];
  /** Its REST rows, each running one root field (rest/route-table.ts). */
  readonly routes?: readonly Route[];
  /** The role matrix's row of every root field its resolvers serve, by topic, and the rules of its types' fields. */
  readonly rules?: ModuleRules;
  /** The error domain of its payloads: their `<Domain>Error` type and the codes they may carry. */
  readonly errors?: ErrorDomain;
  /** The events it emits (its `<thing>.events.ts`). */
  readonly events?: EventDefinitions;
}

export const defineModule = <const M extends ModuleDeclaration>(declaration: M): M => Object.freeze(declaration);

/** The modules assembled: what the schema, the guard, the REST router and the README read. */
export interface AssembledModules {
  readonly modules: readonly ModuleDeclaration[];
  readonly resolvers: readonly Function[];
  readonly routes: readonly Route[];
  readonly roleMatrix: RoleMatrix;
  readonly errorDomains: readonly ErrorDomain[];
}

/** The root fields (`Query.courses`) a module's resolvers declare, inherited ones included. */
function rootFieldsOf(resolvers: readonly Function[]): string[] {
  const storage = getMetadataStorage();
  const served = (target: Function) => resolvers.some((r) => r === target || r.prototype instanceof target);
  return [
    ...storage.queries.filter((h) => served(h.target)).map((h) => `Query.${h.schemaName}`),
    ...storage.mutations.filter((h) => served(h.target)).map((h) => `Mutation.${h.schemaName}`),
    ...storage.subscriptions.filter((h) => served(h.target)).map((h) => `Subscription.${h.schemaName}`),
  ];
}

/**
 * Assembles the modules, in the order given (the README's tables and the event catalog follow it),
 * and installs their error domains and events (GraphQL types: once a process). A module whose
 * root field has no row in its rules, or whose rules name a field it does not serve, stops start-up.
 */
export function assembleModules(modules: readonly ModuleDeclaration[]): AssembledModules {
  const names = new Set<string>();
  const owners = new Map<Function, string>();
  for (const module of modules) {
    if (names.has(module.name)) throw new Error(`Two modules are named ${module.name}`);
    names.add(module.name);
    for (const resolver of module.resolvers) {
      const other = owners.get(resolver);
      if (other) throw new Error(`The resolver ${resolver.name} is listed by the modules ${other} and ${module.name}`);
      owners.set(resolver, module.name);
    }
    const served = rootFieldsOf(module.resolvers);
    const rows = new Set(Object.values(module.rules?.operations ?? {}).flatMap((topic) => Object.keys(topic ?? {})));
    const missing = served.filter((key) => !rows.has(key));
    if (missing.length)
      throw new Error(`The module ${module.name} serves ${missing.join(', ')} without a row of the role matrix: add it to rules.operations in src/modules/${module.name}/index.ts`);
    const extra = [...rows].filter((key) => !served.includes(key));
    if (extra.length) throw new Error(`The module ${module.name}'s rules name ${extra.join(', ')}, which none of its resolvers serves`);
  }
  const roleMatrix = roleMatrixOf(modules);
  const errorDomains = modules.flatMap((m) => (m.errors ? [m.errors] : []));
  installErrorDomains(errorDomains);
  installEventCatalog(modules.map((m) => m.events ?? {}));
  return { modules, resolvers: modules.flatMap((m) => m.resolvers), routes: modules.flatMap((m) => m.routes ?? []), roleMatrix, errorDomains };
}
