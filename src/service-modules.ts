import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildAppSchema } from './graphql/schema.js';
import { type AssembledModules, assembleModules } from './modules/define-module.js';
import { modules } from './modules/index.js';

/**
 * The service's modules assembled at start-up (src/modules/index.ts lists them): the role matrix,
 * error domains, event catalog and route table come from their declarations, and the schema from
 * their resolvers. Importing this file assembles them.
 */
export const service: AssembledModules = assembleModules(modules);
export const routes = service.routes;

const schemas = new WeakMap<AssembledModules, Promise<GraphQLSchema>>();

/** The schema of assembled modules, built once per assembly. */
export function schemaOf(assembled: AssembledModules): Promise<GraphQLSchema> {
  let schema = schemas.get(assembled);
  if (!schema) schemas.set(assembled, (schema = buildAppSchema(assembled)));
  return schema;
}

/** The one schema both faces execute; built once per process. */
export const appSchema = (): Promise<GraphQLSchema> => schemaOf(service);
