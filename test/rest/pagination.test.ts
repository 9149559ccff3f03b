import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schoolProducts } from '../../src/modules/school-products/school-product.table.js';
import { expectFieldError } from '../support/rest-assertions.js';
import { type Service, startService, type TestSchool } from '../support/service.js';

// The REST lists' pages (src/rest/router.ts): page and per_page, the X-Total-Count, X-Page and
// X-Per-Page headers and the Link header, their bounds, and the whole list streamed when no page is
// asked. Seen through GET /school_products; every list route shares the mechanism.

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service?.stop());

/** The Link header's relations, each as its URL's query. */
function parseLinks(header: unknown): Record<string, URLSearchParams> {
  const out: Record<string, URLSearchParams> = {};
  for (const part of String(header ?? '').split(',')) {
    const m = /<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
    if (m) out[m[2]] = new URL(m[1], 'http://x').searchParams;
  }
  return out;
}

describe('GET /school_products', () => {
  describe('pagination', () => {
    let catalogue: TestSchool;
    let ids: number[];
    const TOTAL = 105;

    beforeAll(async () => {
      catalogue = await service.school('Catalogue');
      const rows = await service.db
        .insert(schoolProducts)
        .values(Array.from({ length: TOTAL }, (_, i) => ({ schoolId: catalogue.id, title: `P${String(i + 1).padStart(3, '0')}` })))
        .returning({ id: schoolProducts.id });
      ids = rows.map((r) => r.id).sort((x, y) => x - y);
    });

    it('given page=2&per_page=10, then the second ten with X-Total-Count, X-Page, X-Per-Page and Link', async () => {
      const res = await catalogue.admin.get('/school_products?page=2&per_page=10');
      expect(res.status).toBe(200);
      expect(res.body.map((p: any) => p.id)).toEqual(ids.slice(10, 20));
      expect(res.body[0].title).toBe('P011');
      expect(res.headers['x-total-count']).toBe(String(TOTAL));
      expect(res.headers['x-page']).toBe('2');
      expect(res.headers['x-per-page']).toBe('10');
      const links = parseLinks(res.headers.link);
      expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
      expect(links.first.get('page')).toBe('1');
      expect(links.prev.get('page')).toBe('1');
      expect(links.next.get('page')).toBe('3');
      expect(links.last.get('page')).toBe('11');
      for (const rel of Object.values(links)) expect(rel.get('per_page')).toBe('10');
    });

    it('given page=1 alone, then per_page defaults to 10 and there is no prev link', async () => {
      const res = await catalogue.admin.get('/school_products?page=1');
      expect(res.status).toBe(200);
      expect(res.body.map((p: any) => p.id)).toEqual(ids.slice(0, 10));
      expect(res.headers['x-per-page']).toBe('10');
      const links = parseLinks(res.headers.link);
      expect(links.prev).toBeUndefined();
      expect(links.next.get('page')).toBe('2');
    });

    it('given the last page, then the remainder and no next link', async () => {
      const res = await catalogue.admin.get('/school_products?page=11&per_page=10');
      expect(res.body.map((p: any) => p.id)).toEqual(ids.slice(100));
      const links = parseLinks(res.headers.link);
      expect(links.next).toBeUndefined();
      expect(links.prev.get('page')).toBe('10');
    });

    it('given per_page=100 (the maximum) and page=2, then the last five', async () => {
      const res = await catalogue.admin.get('/school_products?page=2&per_page=100');
      expect(res.status).toBe(200);
      expect(res.body.map((p: any) => p.id)).toEqual(ids.slice(100));
      expect(res.headers['x-per-page']).toBe('100');
    });

    it('given a page past the end, then an empty array', async () => {
      const res = await catalogue.admin.get('/school_products?page=50&per_page=10');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers['x-total-count']).toBe(String(TOTAL));
    });

    it.each([
      ['per_page=101&page=1', 'per_page'],
      ['per_page=1000&page=2', 'per_page'],
      ['per_page=0&page=1', 'per_page'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=1&per_page=ten', 'per_page'],
    ])('given %s, then 400 (never a silent cut)', async (query, field) => {
      const res = await catalogue.admin.get(`/school_products?${query}`);
      expectFieldError(res, 400, field);
    });

    it('given per_page without page, then it is ignored: the whole list', async () => {
      const res = await catalogue.admin.get('/school_products?per_page=5');
      expect(res.status).toBe(200);
      expect(res.body.map((p: any) => p.id)).toEqual(ids);
      expect(res.headers['x-total-count']).toBe(String(TOTAL));
    });

    it('given more than 100 products and no page, then the whole list comes back, streamed page by page', async () => {
      const res = await catalogue.admin.get('/school_products');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toHaveLength(TOTAL);
      expect(res.body.map((p: any) => p.id)).toEqual(ids);
      expect(new Set(res.body.map((p: any) => p.id)).size).toBe(TOTAL);
      expect(res.body[TOTAL - 1]).toMatchObject({ title: 'P105', school_id: catalogue.id, category_ids: [] });
      expect(res.headers['x-total-count']).toBe(String(TOTAL));
      expect(res.headers['x-page']).toBeDefined();
      expect(res.headers['x-per-page']).toBeDefined();
      expect(res.headers.link).toBeDefined();
    });
  });
});
