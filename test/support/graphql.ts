import { initGraphQLTada, type ResultOf, type TadaDocumentNode } from 'gql.tada';
import type { introspection } from './graphql-env.js';
import { expect } from 'vitest';
import type { Client, GraphqlReply, Present } from './service.js';

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

/**
 * Sends a query and returns its data, failing the test on any GraphQL error: typed for a document
 * of `graphql(...)`, untyped for a plain string (a query built with interpolated values).
 */
export async function dataOf<D extends TadaDocumentNode<any, any>>(client: Client, query: D, variables?: Record<string, unknown>): Promise<Present<ResultOf<D>>>;
export async function dataOf(client: Client, query: string, variables?: Record<string, unknown>): Promise<any>;
export async function dataOf(client: Client, query: string | TadaDocumentNode<any, any>, variables?: Record<string, unknown>): Promise<unknown> {
  const res = await client.graphql(query as string, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}
