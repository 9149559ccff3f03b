import 'reflect-metadata';
import { join } from 'node:path';
import { buildSchema, introspectionFromSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { projectRoot } from '../db/client.js';
import { appSchema, routes } from '../service-modules.js';
import { buildOpenApi } from '../rest/openapi.js';
import { renderReadmeFile } from './readme-tables.js';

/**
 * The generated descriptions of the service, committed under schema/ (and the README's tables). The writer
 * (tools/write-artifacts.ts) and the staleness test (test/artifacts.test.ts) both render them
 * here, so they compare the very same text.
 */
export const artifacts = {
  graphql: { file: 'schema/schema.graphql', render: renderGraphqlSdl },
  openapi: { file: 'schema/openapi.json', render: renderOpenApi },
  /** The REST description as TypeScript types (openapi-typescript), for a typed client (openapi-fetch). */
  openapiTypes: { file: 'schema/openapi-types.d.ts', render: renderOpenApiTypes },
  /** The README's role matrix and school lifecycle tables, between their markers. */
  readme: { file: 'README.md', render: async () => renderReadmeFile(artifactPath('README.md')) },
  /** The schema's introspection as types, for the tests' typed GraphQL documents (gql.tada). */
  graphqlEnv: { file: 'test/support/graphql-env.d.ts', render: renderGraphqlEnv },
} as const;

/** The GraphQL SDL, types and fields sorted so the file changes only when the schema does. */
export async function renderGraphqlSdl(): Promise<string> {
  return `${printSchema(lexicographicSortSchema(await appSchema()))}\n`;
}

/** gql.tada's introspection types (what `gql.tada generate output` writes), from the same SDL. */
export async function renderGraphqlEnv(): Promise<string> {
  const { minifyIntrospection, outputIntrospectionFile } = await import('@gql.tada/internal');
  const introspection = introspectionFromSchema(buildSchema(await renderGraphqlSdl()));
  return outputIntrospectionFile(minifyIntrospection(introspection), { fileType: '.d.ts', shouldPreprocess: true });
}

/** The OpenAPI description of the REST layer, as 2-space JSON. */
export async function renderOpenApi(): Promise<string> {
  return `${JSON.stringify(buildOpenApi(await appSchema(), routes), null, 2)}\n`;
}

/** openapi-typescript's types of the OpenAPI document the code renders (what its CLI writes for schema/openapi.json). */
export async function renderOpenApiTypes(): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  return astToString(await openapiTS(JSON.parse(await renderOpenApi())));
}

/** An artifact's absolute path, relative to the project root. */
export function artifactPath(file: string): string {
  return join(projectRoot, file);
}
