import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/**
 * The client's address of a raw request, as Fastify gives `request.ip` for the same `trustProxy`
 * (TRUST_PROXY), with the same library: the WebSocket upgrades of subscriptions reach no route, yet
 * their sockets are counted and rate limited by the address HTTP requests of that client pay with.
 */
export function clientAddress(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  if (!trustProxy) return (request) => request.socket.remoteAddress ?? '';
  const trust = typeof trustProxy === 'function' ? trustProxy : trustProxy === true ? () => true : proxyAddr.compile(trustProxy);
  return (request) => {
    const addresses = proxyAddr.all(request, trust);
    return addresses[addresses.length - 1] ?? '';
  };
}
