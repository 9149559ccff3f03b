import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, drawnWidth, launchBrowser } from './support/browser.js';
import { type Service, startService } from './support/service.js';

/**
 * `/docs` in a real browser, offline: every request that leaves the service's origin is aborted
 * and recorded, so the page passes only if it needs nothing but the service itself. The icon the
 * browser asks for beside it, `/favicon.ico`, is checked with a plain request too (no browser).
 */
const hasBrowser = browserAvailable('test/docs.browser.test.ts');

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service?.stop());

describe('/favicon.ico', () => {
  it('answers a small SVG icon, cached, with the security headers (a 404 was a console error on every page)', async () => {
    for (const url of ['/favicon.ico', '/v1/favicon.ico']) {
      const res = await service.anonymous.get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*viewBox="0 0 16 16">.*<\/svg>$/);
      expect(res.text.length).toBeLessThan(300);
    }
    const head = await service.app.inject({ method: 'HEAD', url: '/favicon.ico' });
    expect(head.statusCode).toBe(200);
  });
});

describe.skipIf(!hasBrowser)('/docs in headless Chromium', () => {
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    origin = await service.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('renders the operations of the OpenAPI document with nothing from the internet and no console error', async () => {
    const openapi = (await service.anonymous.get('/openapi.json')).body;
    const page = await browser.newPage();
    const outside: string[] = [];
    const problems: string[] = [];
    const fetched: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`)) {
        fetched.push(new URL(url).pathname);
        return route.continue();
      }
      outside.push(url);
      return route.abort();
    });
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // CSP violations, as the page sees them (a console message alone is easy to miss).
    await page.addInitScript(() => {
      const seen: string[] = ((window as any).cspViolations = []);
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`));
    });

    const reply = await page.goto(`${origin}/docs`);
    expect(reply?.status()).toBe(200);
    expect(reply?.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);

    // Operations of the first tag (the sidebar opens it), named as the document names them.
    const operations = Object.values<Record<string, { summary: string; tags: string[] }>>(openapi.paths).flatMap((item) => Object.values(item));
    const names = [...new Set(operations.filter((op) => op.tags[0] === operations[0].tags[0]).map((op) => op.summary))].slice(0, 3);
    expect(names.length).toBe(3);
    for (const name of names) await page.getByText(name, { exact: true }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await expect(page.getByRole('heading', { name: openapi.info.title }).first().isVisible()).resolves.toBe(true);

    expect(fetched).toEqual(expect.arrayContaining(['/docs/js/scalar.js', '/openapi.json']));
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    // The one refusal allowed: the bundle's zod asks whether it may compile validators with
    // `Function('')` and, refused, validates without (so the policy needs no 'unsafe-eval').
    const violations: string[] = await page.evaluate(() => (window as any).cspViolations);
    expect(violations.filter((v) => v !== `script-src eval ${origin}/docs/js/scalar.js`)).toEqual([]);
    await page.close();
  }, 120_000);

  it('asks for /favicon.ico beside the page, gets it and draws it (a 404 there was a console error)', async () => {
    const served: string[] = [];
    const record = (req: IncomingMessage, res: ServerResponse) => res.on('finish', () => served.push(`${req.method} ${req.url} ${res.statusCode}`));
    service.app.server.on('request', record);
    // No request interception here: Chromium fetches no favicon for a page whose requests a test routes.
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    try {
      await page.goto(`${origin}/docs`);
      await expect.poll(() => served, { timeout: 30_000 }).toContain('GET /favicon.ico 200');
      expect(await page.evaluate(drawnWidth, '/favicon.ico')).toBe(16);
      expect(problems).toEqual([]);
    } finally {
      service.app.server.off('request', record);
      await page.close();
    }
  }, 120_000);
});
