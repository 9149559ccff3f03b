import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { buildOpenApi } from './openapi.js';
import type { Route } from './route-table.js';

/** The document of each schema, built on its first request and kept: a tenth of a second no instance needs to start. */
const documents = new WeakMap<GraphQLSchema, string>();

/**
 * `GET /openapi.json`: the REST description (the router has already compiled every row at
 * start-up, so a broken row has stopped the service there). The app's URL rewrite strips a `.json`
 * suffix, so the request arrives as `/openapi`; both are registered so the route works with or without it.
 */
export function registerOpenApiRoute(app: FastifyInstance, schema: GraphQLSchema, routes: readonly Route[]): void {
  const body = () => {
    let document = documents.get(schema);
    if (document === undefined) documents.set(schema, (document = JSON.stringify(buildOpenApi(schema, routes))));
    return document;
  };
  for (const url of ['/openapi', '/openapi.json'])
    app.get(url, (_request, reply) => reply.type('application/json; charset=utf-8').send(body()));
}
