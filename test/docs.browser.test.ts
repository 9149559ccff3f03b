import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { type Service, startService } from './support/service.js';

/**
 * `/docs` in a real browser, offline: every request that leaves the service's origin is aborted
 * and recorded, so the page passes only if it needs nothing but the service itself.
 */
const hasBrowser = browserAvailable('test/docs.browser.test.ts');

describe.skipIf(!hasBrowser)('/docs in headless Chromium', () => {
  let service: Service;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    service = await startService();
    origin = await service.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

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
});
