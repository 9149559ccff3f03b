import type { Context } from '../../src/graphql/context.js';
import { contextFor } from '../../src/graphql/request-context.js';
import type { Client, Service } from './service.js';

/**
 * The context a request of `client` gets (graphql/request-context.ts), for the mechanism tests that
 * drive a loader, a page or a resource base directly against the service's database; `headers` adds
 * to the client's credential (X-School-Id). No client: an anonymous request.
 */
export function contextOf(service: Service, client: Client | null, headers: Record<string, string> = {}): Promise<Context> {
  const authorization = client?.token ? { authorization: `Bearer ${client.token}` } : {};
  return contextFor({ db: service.db, now: service.clock.now }, { ...authorization, ...headers });
}
