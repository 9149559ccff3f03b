import 'reflect-metadata';
import { GraphQLDateTime } from 'graphql-scalars';
import type { GraphQLSchema } from 'graphql';
import { buildSchema, type NonEmptyArray } from 'type-graphql';
import { authChecker } from '../auth/auth-checker.js';
import { resolvers } from '../modules/index.js';

let built: Promise<GraphQLSchema> | undefined;

/** The one schema both faces execute; built once per process. */
export function appSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers: resolvers as unknown as NonEmptyArray<Function>,
    validate: true,
    authChecker,
    authMode: 'error',
    scalarsMap: [{ type: Date, scalar: GraphQLDateTime }],
  });
  return built;
}
