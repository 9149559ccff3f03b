import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import type { Context } from './context.js';
import { AppError, raisedErrors } from './errors.js';

const exampleQuery = `# Send your token in the Headers tab: {"Authorization": "Bearer <token>"}
query Schools {
  schools(first: 10) {
    totalCount
    nodes { id name subdomain status }
  }
}
`;

/** A self-contained GraphiQL page (assets inlined), so the playground works with no internet access. */
const playground: ApolloServerPlugin<Context> = {
  async serverWillStart() {
    const html = renderGraphiQL({ endpoint: '/graphql', title: 'Learning platform', defaultQuery: exampleQuery, headers: '{"Authorization": "Bearer "}' });
    return { async renderLandingPage() { return { html }; } };
  },
};

/** Codes whose messages are safe to show: client mistakes and the service's own raised errors. */
const clientCodes = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
  // The service's own raised codes (a bad credential fails while the context is built).
  ...Object.values(raisedErrors)
    .map((e) => e.graphql)
    .filter((code) => code !== 'INTERNAL_SERVER_ERROR'),
]);

export function createApollo(schema: GraphQLSchema, log: (error: unknown) => void): ApolloServer<Context> {
  return new ApolloServer<Context>({
    schema,
    plugins: [playground],
    includeStacktraceInErrorResponses: false,
    formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
      const original = unwrapResolverError(error);
      if (original instanceof AppError) return { ...formatted, message: original.message };
      const code = formatted.extensions?.code as string | undefined;
      if (code && clientCodes.has(code)) return formatted;
      // Anything else may carry SQL text or internals: log it, show a mask.
      log(original);
      return { message: 'Internal server error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    },
  });
}
