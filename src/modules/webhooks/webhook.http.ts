import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';

// Not an ESM import of node:http, which would load undici at start-up (errors/reply.ts says why).
const { request: httpRequest } = process.getBuiltinModule('node:http');

/**
 * Sending a webhook without letting an integration probe the network the service runs in: only
 * http(s) URLs; every address a name resolves to, and the address actually connected to, must be
 * public unicast (refusedAddress), unless private networks are allowed
 * (WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true). The custom `lookup` checks what DNS answers at connect
 * time, so a name that re-binds to a private address after a check cannot pass. Redirects are never
 * followed (a 3xx is a failure); one timeout covers the whole attempt. Saving an integration runs the
 * same checks early (refusedWebhookUrl), so a refused URL is a 422 rather than 27 hours of retries.
 */
export class WebhookAddressError extends Error {}

const ALLOW_HINT = '; only public addresses are called unless the service sets WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true';
const bare = (host: string) => host.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
/** NAT64's well-known prefix: its addresses reach the IPv4 address in their last 32 bits (DNS64 on IPv6-only hosts answers them). */
const NAT64 = ipaddr.IPv6.parse('64:ff9b::');

/**
 * Why an address may not be called, or null when it is public unicast: every range ipaddr.js names
 * (loopback, private, link-local, carrier-grade NAT, multicast, reserved, 6to4, Teredo...) is
 * refused, and ::/96 (IPv4-compatible, deprecated, which ipaddr.js calls unicast yet reaches the
 * embedded IPv4 address). Mapped (::ffff:0:0/96), translated (::ffff:0:0:0/96) and NAT64 addresses
 * are judged as the IPv4 address they carry.
 */
export function refusedAddress(address: string): string | null {
  const host = bare(address);
  const kind = isIP(host);
  if (!kind) return `${address} is not an IP address`;
  // Through the URL serializer first: ipaddr.js reads `::a.b.c.d` as ::ffff:a.b.c.d, yet it is ::/96 (and Node prints those so).
  const parsed = ipaddr.parse(kind === 6 ? new URL(`http://[${host}]/`).hostname.slice(1, -1) : host);
  const range = parsed.range();
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const v4 = new ipaddr.IPv4(v6.toByteArray().slice(12));
    if (range === 'unicast' && v6.parts.slice(0, 6).every((part) => part === 0)) return `${address} is an IPv4-compatible address (::/96, ${v4})`;
    if (range === 'ipv4Mapped' || range === 'rfc6145' || v6.match(NAT64, 96)) {
      const why = refusedAddress(v4.toString());
      return why && `${address} carries ${why}`;
    }
  }
  return range === 'unicast' ? null : `${address} is ${/^[aeiou]/.test(range) ? 'an' : 'a'} ${range} address`;
}

/** The first of a name's addresses that is refused, as a reason; null when all may be called. */
function refusedAddresses(hostname: string, addresses: readonly string[]): string | null {
  const why = addresses.map(refusedAddress).find((reason) => reason !== null);
  return why ? `${hostname} resolves to a non-public address (${why})` : null;
}

/** The URL, checked for its scheme, credentials and (an IP literal) its address; throws WebhookAddressError saying why not. */
export function checkWebhookUrl(raw: unknown, allowPrivate: boolean): URL {
  let url: URL;
  try {
    if (typeof raw !== 'string') throw new TypeError();
    url = new URL(raw);
  } catch {
    throw new WebhookAddressError('is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookAddressError('must be an http or https URL');
  if (url.username || url.password) throw new WebhookAddressError('may not carry credentials');
  const host = bare(url.hostname);
  if (!allowPrivate && isIP(host)) {
    const why = refusedAddress(host);
    if (why) throw new WebhookAddressError(`is refused: ${why}${ALLOW_HINT}`);
  }
  return url;
}

/** How long saving an integration waits for DNS: a slow resolver must not hold the write's transaction long. */
const SAVE_LOOKUP_MS = 2000;

/** Every address a name resolves to; none when it does not resolve (in time). */
function resolveAll(hostname: string, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve([]), timeoutMs);
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      clearTimeout(timer);
      resolve(error ? [] : addresses.map((a) => a.address));
    });
  });
}

/**
 * Why a URL may not be saved as a webhook's (the reason, after the field's name), or null: the
 * checks of checkWebhookUrl, then every address its name resolves to now. A name that does not
 * resolve is accepted: DNS may be failing for a moment, and every delivery checks again.
 */
export async function refusedWebhookUrl(raw: unknown, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = checkWebhookUrl(raw, allowPrivate);
  } catch (error) {
    return (error as Error).message;
  }
  const host = bare(url.hostname);
  if (allowPrivate || isIP(host)) return null;
  const why = refusedAddresses(host, await resolveAll(host, SAVE_LOOKUP_MS));
  return why && `is refused: ${why}${ALLOW_HINT}`;
}

/** A dns lookup that fails when any address the name resolves to is refused. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = allowPrivate ? null : refusedAddresses(hostname, addresses.map((a) => a.address));
      if (refused) return callback(new WebhookAddressError(`refused: ${refused}`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export interface SendResult {
  /** The response status, when a response came. */
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** POSTs `body` to the URL; resolves (never rejects) with the status or the error. */
export function postWebhook(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendResult> {
  const started = Date.now();
  const done = (status: number | null, error: string | null): SendResult => ({ status, error, durationMs: Date.now() - started });
  let url: URL;
  try {
    url = checkWebhookUrl(rawUrl, options.allowPrivate);
  } catch (error) {
    return Promise.resolve(done(null, `metaconfig.url ${(error as Error).message}`));
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const requestOptions: RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'learning-platform-webhooks/1' },
      lookup: guardedLookup(options.allowPrivate),
      agent: false,
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, requestOptions, (res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      res.on('error', () => {});
      const error = status >= 200 && status < 300 ? null : status >= 300 && status < 400 ? `redirect ${status} not followed` : `HTTP ${status}`;
      finish(done(status, error));
      res.destroy();
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    // The address actually connected to is checked too (an IP literal skips lookup).
    req.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const why = options.allowPrivate || !socket.remoteAddress ? null : refusedAddress(socket.remoteAddress);
        if (why) req.destroy(new WebhookAddressError(`refused: connected to ${why}`));
      });
    });
    req.on('error', (error) => finish(done(null, error.message || String(error))));
    req.end(body);
  });
}
