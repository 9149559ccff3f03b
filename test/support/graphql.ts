import { initGraphQLTada, type ResultOf, type TadaDocumentNode } from 'gql.tada';
import type { introspection } from './graphql-env.js';
import type { GraphqlReply, Present } from './service.js';

/**
 * Typed GraphQL documents for the tests: `graphql(`query { ... }`)` gives a document whose reply
 * type (`ResultOf`) comes from the schema, so `Client.graphql` returns
 * typed `data`. test/support/graphql-env.d.ts is generated from the schema with the other
 * artifacts (`npm run schema:write`; test/artifacts.test.ts fails when it is stale).
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  // Fragments spread into a document type its reply as written (no masking: tests read whole replies).
  disableMasking: true;
  scalars: {
    ID: string;
    DateTime: string;
    EmailAddress: string;
    JSON: unknown;
    JSONObject: Record<string, unknown>;
    PaymentKind: string;
  };
}>();

export type { ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';

/** The reply `Client.graphql` gives for a document (to annotate a variable the loop feeds back into). */
export type ReplyOf<D extends TadaDocumentNode<any, any>> = GraphqlReply<Present<ResultOf<D>>>;
