import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { buildOpenApi } from './openapi.js';
import type { Route } from './route-table.js';

/**
 * `GET /openapi.json`: the REST description, built once at start-up (a broken row stops the
 * service here as it does in the router). The app's URL rewrite strips a `.json` suffix, so the
 * request arrives as `/openapi`; both are registered so the route works with or without it.
 */
export function registerOpenApiRoute(app: FastifyInstance, schema: GraphQLSchema, routes: Route[]): void {
  const body = JSON.stringify(buildOpenApi(schema, routes));
  for (const url of ['/openapi', '/openapi.json'])
    app.get(url, (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
}
