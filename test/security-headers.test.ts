import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { ConfigurationError } from '../src/config.js';
import { API_CONTENT_SECURITY_POLICY, parseCorsOrigins } from '../src/http/security.js';
import { type Service, startService } from './support/service.js';

// Every reply carries security headers; the offline playground gets a policy that lets its own
// inline code run and nothing else; CORS answers only the origins the operator lists.

let service: Service;
let allowing: FastifyInstance;
let anyOrigin: FastifyInstance;
const app = 'https://app.example.com';

beforeAll(async () => {
  service = await startService();
  allowing = await createApp({ database: service.database, corsOrigins: [app, 'http://localhost:3000'] });
  anyOrigin = await createApp({ database: service.database, corsOrigins: ['*'] });
  await Promise.all([allowing.ready(), anyOrigin.ready()]);
});
afterAll(async () => {
  await allowing?.close();
  await anyOrigin?.close();
  await service?.stop();
});

/** helmet's headers meant for pages: cross-origin isolation, the referrer, legacy browser switches. */
const PAGE_ONLY = ['referrer-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];

const directives = (policy: string) =>
  new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values] as const));

describe('security headers', () => {
  it('given replies of every kind (REST, GraphQL, errors, no route, a malformed URL), then each carries the API’s security headers and none of a page’s', async () => {
    const replies = [
      await service.anonymous.get('/health'),
      await service.platform.get('/schools'),
      await service.platform.post('/graphql', { query: '{ __typename }' }),
      await service.anonymous.get('/schools'),
      await service.anonymous.get('/no/such/route'),
      // Answered by Fastify before any hook: a bad escape, a path segment too long.
      await service.platform.get('/schools/%E0%A4%A'),
      await service.platform.get(`/school_products/${'7'.repeat(300)}`),
    ];
    for (const res of replies) {
      expect(res.headers['content-security-policy'], `${res.status} ${res.text}`).toBe(API_CONTENT_SECURITY_POLICY);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['x-powered-by']).toBeUndefined();
      // What only a page needs stays off data replies (issue 31: 1 KB of headers on every reply).
      for (const pageOnly of PAGE_ONLY) expect(res.headers[pageOnly], pageOnly).toBeUndefined();
    }
  });

  it('given the HTML pages (the playground, the reference), then they carry helmet’s whole set besides their own policy', async () => {
    for (const res of [await service.anonymous.get('/graphql', { headers: { accept: 'text/html' } }), await service.anonymous.get('/docs/')]) {
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).not.toBe(API_CONTENT_SECURITY_POLICY);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      for (const pageOnly of PAGE_ONLY) expect(res.headers[pageOnly], pageOnly).toBeDefined();
    }
  });

  it('given a JSON reply, then its security headers weigh under 250 bytes', async () => {
    const res = await service.platform.post('/graphql', { query: '{ __typename }' });
    const security = ['content-security-policy', 'strict-transport-security', 'x-content-type-options', 'x-frame-options', ...PAGE_ONLY];
    const bytes = security.filter((name) => res.headers[name] !== undefined).reduce((sum, name) => sum + name.length + 4 + String(res.headers[name]).length, 0);
    expect(bytes).toBeLessThan(250);
  });

  it('given a browser opening /graphql, then the playground page runs under a policy that allows exactly its own inline code', async () => {
    const res = await service.anonymous.get('/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const policy = directives(String(res.headers['content-security-policy']));

    // Every inline script is allowed by its hash; no script may come from elsewhere or be eval'd.
    const scripts = [...res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).not.toMatch(/\bsrc=/);
      expect(policy.get('script-src')).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    }
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
    expect(policy.get('script-src')).not.toContain("'unsafe-eval'");
    // What the editor needs: inline styles, data: fonts and icons, blob: workers, requests to /graphql.
    expect(policy.get('style-src')).toContain("'unsafe-inline'");
    expect(policy.get('font-src')).toContain('data:');
    expect(policy.get('img-src')).toContain('data:');
    expect(policy.get('worker-src')).toContain('blob:');
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    // Offline: the page loads nothing from another host.
    expect(res.text).not.toMatch(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=["']?(?:https?:)?\/\//i);
    expect(res.text).toContain('renderYogaGraphiQL');
  });
});

describe('CORS', () => {
  const preflight = (server: FastifyInstance, url: string, origin?: string) =>
    server.inject({
      method: 'OPTIONS',
      url,
      headers: {
        ...(origin ? { origin } : {}),
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });

  it('given no CORS_ORIGINS, then a preflight to /graphql is answered 204 without allowing the origin', async () => {
    const res = await preflight(service.app, '/graphql', 'https://evil.example');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const plain = await service.app.inject({ method: 'OPTIONS', url: '/graphql' });
    expect(plain.statusCode).toBe(204);
    expect(plain.body).toBe('');
    const get = await service.app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://evil.example' } });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('given an allowed origin, then the preflight allows its methods and headers, on GraphQL and REST paths alike', async () => {
    for (const url of ['/graphql', '/schools', '/v1/courses/12.json']) {
      const res = await preflight(allowing, url, app);
      expect(res.statusCode, url).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(app);
      expect(String(res.headers['access-control-allow-methods'])).toMatch(/POST.*PUT.*DELETE/);
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/Authorization.*Content-Type.*X-School-Id/);
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['content-security-policy']).toBe(API_CONTENT_SECURITY_POLICY);
    }
  });

  it('given a request from an allowed origin, then the reply names it and exposes the list headers; another origin is not named', async () => {
    const ok = await allowing.inject({ method: 'GET', url: '/schools?page=1', headers: { origin: app, authorization: `Bearer ${service.platform.token}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(app);
    expect(String(ok.headers.vary)).toMatch(/Origin/);
    expect(String(ok.headers['access-control-expose-headers'])).toMatch(/Location.*Link.*X-Total-Count/);
    const other = await preflight(allowing, '/graphql', 'https://app.example.com.evil.example');
    expect(other.statusCode).toBe(204);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('given CORS_ORIGINS=*, then any origin may call', async () => {
    const res = await preflight(anyOrigin, '/graphql', 'https://anywhere.example');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('given a request without Origin, then its reply carries no CORS header it cannot use: Vary only where the answer depends on the origin', async () => {
    const bare = { method: 'POST' as const, url: '/graphql', payload: { query: '{ __typename }' } };
    // No origins allowed: nothing varies by origin, nothing is exposed.
    const none = await service.app.inject(bare);
    expect(none.statusCode).toBe(200);
    for (const name of ['vary', 'access-control-allow-origin', 'access-control-expose-headers']) expect(none.headers[name], name).toBeUndefined();
    // A list of origins: a cache must not hand this reply to a page of an allowed origin.
    const listed = await allowing.inject(bare);
    expect(listed.headers.vary).toBe('Origin');
    expect(listed.headers['access-control-allow-origin']).toBeUndefined();
    expect(listed.headers['access-control-expose-headers']).toBeUndefined();
    // `*`: the same answer for everyone, on every reply.
    const any = await anyOrigin.inject(bare);
    expect(any.headers['access-control-allow-origin']).toBe('*');
    expect(any.headers.vary).toBeUndefined();
    expect(any.headers['access-control-expose-headers']).toBeUndefined();
    const named = await anyOrigin.inject({ ...bare, headers: { origin: 'https://anywhere.example' } });
    expect(named.headers['access-control-allow-origin']).toBe('*');
    expect(String(named.headers['access-control-expose-headers'])).toMatch(/RateLimit-Remaining/);
  });

  it('given a preflight to a path no route serves, then it is answered 204 like any other, with the request id', async () => {
    const res = await preflight(allowing, '/no/such/path', app);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(app);
    expect(res.headers['x-request-id']).toMatch(/\S/);
    expect(res.headers['content-length']).toBeUndefined();
  });

  it('given CORS_ORIGINS entries that are not origins, then start-up stops naming the entry', () => {
    expect(parseCorsOrigins(['https://a.example', 'http://localhost:3000/'])).toEqual(['https://a.example', 'http://localhost:3000']);
    for (const bad of ['a.example', 'https://a.example/app', 'file:///etc', '']) {
      expect(() => parseCorsOrigins([bad])).toThrow(ConfigurationError);
      expect(() => parseCorsOrigins([bad])).toThrow(`"${bad}"`);
    }
  });
});
