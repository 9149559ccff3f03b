import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Sending a webhook without letting an integration probe the network the service runs in: only
 * http(s) URLs; every address a name resolves to, and the address actually connected to, must be
 * public unicast (loopback, private, link-local, carrier-grade NAT, multicast, reserved and the
 * IPv6 equivalents are refused, an IPv4-mapped IPv6 address as its IPv4 one), unless private
 * networks are allowed (WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true). The custom `lookup` checks what DNS
 * answers at connect time, so a name that re-binds to a private address after a check cannot pass.
 * Redirects are never followed (a 3xx is a failure); one timeout covers the whole attempt.
 */
export class WebhookAddressError extends Error {}

/** Why an address may not be called, or null when it is public unicast. */
export function refusedAddress(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return `${address} is not an IP address`;
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === 'unicast' ? null : `${address} is a ${range} address`;
}

/** The URL, checked for its scheme (and, when it is an IP literal, its address); throws WebhookAddressError. */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookAddressError('metaconfig.url is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookAddressError('metaconfig.url must be an http or https URL');
  if (url.username || url.password) throw new WebhookAddressError('metaconfig.url may not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host)) {
    const why = refusedAddress(host);
    if (why) throw new WebhookAddressError(`refused: ${why} (set WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true to allow)`);
  }
  return url;
}

/** A dns lookup that fails when any address the name resolves to is refused. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = allowPrivate ? null : addresses.map((a) => refusedAddress(a.address)).find((why) => why !== null);
      if (refused) return callback(new WebhookAddressError(`refused: ${hostname} resolves to ${refused}`), '', 0);
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
    return Promise.resolve(done(null, (error as Error).message));
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
