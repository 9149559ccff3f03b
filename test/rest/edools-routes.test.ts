import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '../../src/service-modules.js';
import { artifactPath, artifacts } from '../../src/tools/artifacts.js';
import { type TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// test/edools-routes.tsv lists the routes the Edools v1 clients call beyond the spec (beside the spec's
// own list, test/spec-routes.tsv): each is a row of the route table marked beyondSpec onto the operation
// the list names (or a 405 the list says), in the OpenAPI document, and answers.

let school: TestSchool;
twoSchools('Edools Routes', 'Edools Routes Other', (w) => ({ school } = w));

const listed = readFileSync(artifactPath('test/edools-routes.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [method, path, runs, note] = line.split('\t');
    return { method, path, runs, note };
  });
/** `/v1/x/:id/`, `/x/{id}` → `/x/{}`: any parameter name. */
const norm = (path: string) => path.replace(/:[A-Za-z_]\w*|\{[^}]+\}/g, '{}').replace(/\/+$/, '') || '/';
const beyond = routes.filter((r) => r.beyondSpec !== undefined);
const rowFor = (method: string, path: string) =>
  beyond.find((r) => [r.method].flat().includes(method as never) && norm(r.path) === norm(path));

describe('routes beyond the spec', () => {
  it('every listed route is a beyondSpec row onto the operation listed; every such row is listed (PATCH as PUT’s twin)', () => {
    const served = listed.filter((l) => l.runs !== '405');
    for (const l of served) expect(rowFor(l.method, l.path)?.field, `${l.method} ${l.path}`).toBe(l.runs);
    for (const l of listed.filter((x) => x.runs === '405')) expect(rowFor(l.method, l.path), `${l.method} ${l.path}`).toBeUndefined();
    const keys = new Set(served.map((l) => `${l.method} ${norm(l.path)}`));
    const unlisted = beyond.flatMap((r) => [r.method].flat().filter((m) => m !== 'PATCH').map((m) => `${m} ${norm(r.path)}`)).filter((k) => !keys.has(k));
    expect(unlisted).toEqual([]);
  });

  it('the OpenAPI document has an operation for each', async () => {
    const document = JSON.parse(await artifacts.openapi.render()) as { paths: Record<string, Record<string, unknown>> };
    const named = new Set(Object.entries(document.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${norm(path)}`)));
    const missing = listed.filter((l) => l.runs !== '405' && !named.has(`${l.method} ${norm(l.path)}`)).map((l) => `${l.method} ${l.path}`);
    expect(missing).toEqual([]);
  });

  it('each answers, under /v1 and with .json: a route of the table (never route_not_found, never 500); the 405s name the methods they have', async () => {
    for (const l of listed) {
      const url = `/v1${l.path.replace(/:[A-Za-z_]\w*/g, (name) => (name === ':id' && l.path.startsWith('/schools/') ? String(school.id) : '2000000000'))}.json`;
      const res = await school.admin.request(l.method, url, l.method === 'GET' || l.method === 'DELETE' ? undefined : {});
      const what = `${l.method} ${url}: ${res.status} ${res.text}`;
      if (l.runs === '405') {
        expect(res.status, what).toBe(405);
        expect(res.headers.allow, what).toContain('GET');
        continue;
      }
      expect(res.status, what).toBeLessThan(500);
      expect(res.status, what).not.toBe(405);
      expect(res.body?.details?.base ?? [], what).not.toContainEqual({ error: 'route_not_found' });
    }
  });
});
