import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { browserAvailable, drawnWidth, launchBrowser } from './support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { FAVICON_SVG } from '../src/http/favicon.js';
import { type Service, startService } from './support/service.js';

/**
 * The GraphQL playground as a new user meets it, in headless Chromium and offline: it opens with
 * the development token set and the schema loaded, runs a query, and leaves a screenshot in
 * .test-cache/playground.png (a test artifact). Without a token it sends no Authorization header.
 */
const hasBrowser = browserAvailable('test/playground.browser.test.ts');

describe.skipIf(!hasBrowser)('the playground in headless Chromium', () => {
  let service: Service;
  let browser: Browser;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    service = await startService();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const app of apps) await app.close();
    await service?.stop();
  });

  async function serve(playgroundToken?: string): Promise<string> {
    const app = await createApp({ database: service.database, rateLimit: { enabled: false }, playgroundToken });
    apps.push(app);
    return app.listen({ port: 0, host: '127.0.0.1' });
  }

  it('given the development token, then it opens ready, loads the schema and runs the example query', async () => {
    const origin = await serve(service.platform.token!);
    const page = await browser.newPage();
    const outside: string[] = [];
    const graphqlStatuses: number[] = [];
    await page.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : (outside.push(route.request().url()), route.abort())));
    page.on('response', (r) => r.url().startsWith(`${origin}/graphql`) && r.request().method() === 'POST' && graphqlStatuses.push(r.status()));

    await page.goto(`${origin}/graphql`);
    // The schema loads (introspection with the preset header), then the example query runs.
    await page.getByRole('button', { name: /execute query/i }).first().click({ timeout: 60_000 });
    await page.getByText('"totalCount"').first().waitFor({ timeout: 60_000 });
    mkdirSync(join(import.meta.dirname, '..', '.test-cache'), { recursive: true });
    await page.screenshot({ path: join(import.meta.dirname, '..', '.test-cache', 'playground.png'), fullPage: true });

    // Its icon is the service's, inline, and an image the browser draws (16 px wide).
    const icons = await page.evaluate(() => [...document.querySelectorAll('link[rel~="icon"]')].map((l) => l.getAttribute('href')!));
    expect(icons).toEqual([`data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}`]);
    expect(await page.evaluate(drawnWidth, icons[0])).toBe(16);
    expect(graphqlStatuses.length).toBeGreaterThanOrEqual(2);
    expect(graphqlStatuses.every((s) => s === 200)).toBe(true);
    expect(outside).toEqual([]);
    await page.close();
  }, 120_000);

  it('given the development token, then it runs a subscription over WebSocket and shows the events as they commit', async () => {
    const origin = await serve(service.platform.token!);
    const school = await service.school('Playground Subscriptions');
    const page = await browser.newPage();
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    const query = 'subscription { events(names: [COURSE_CREATED]) { type payload } }';
    await page.goto(`${origin}/graphql?query=${encodeURIComponent(query)}`);
    await page.getByRole('button', { name: /execute query/i }).first().click({ timeout: 60_000 });
    await expect.poll(() => sockets.length, { timeout: 30_000 }).toBeGreaterThan(0);
    // The subscriber is listening once the socket is open; a course made now reaches the page.
    for (let i = 0; i < 50 && !(await page.getByText('Playground Course').count()); i++) {
      if (i % 10 === 0) await school.admin.graphql(`mutation { createCourse(input: { name: "Playground Course ${i}" }) { errors { code } } }`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await page.getByText('course.created').first().waitFor({ timeout: 30_000 });
    expect(sockets[0]).toBe(`${origin.replace('http', 'ws')}/graphql`);
    await page.close();
  }, 120_000);

  it('given no token, then the page sends no Authorization header and says how to add one', async () => {
    const origin = await serve();
    const page = await browser.newPage();
    const authorizations: (string | undefined)[] = [];
    page.on('request', (r) => r.url().startsWith(`${origin}/graphql`) && r.method() === 'POST' && authorizations.push(r.headers().authorization));
    const html = await (await page.goto(`${origin}/graphql`))!.text();
    expect(html).toContain('Add your token in the Headers tab');
    expect(html).not.toMatch(/Bearer \\?"/);
    // The schema is still asked for (and refused: 401), never with an empty `Bearer `.
    await page.waitForResponse((r) => r.url().startsWith(`${origin}/graphql`) && r.request().method() === 'POST', { timeout: 60_000 });
    expect(authorizations.length).toBeGreaterThan(0);
    expect(authorizations.every((a) => a === undefined)).toBe(true);
    await page.close();
  }, 120_000);
});
