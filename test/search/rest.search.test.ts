import { beforeAll, describe, expect, it } from 'vitest';
import { searchWorld } from '../support/search.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// GET /search?q=&types=: the REST twin of search (a list: page/per_page, totals in headers).

let service: Service;
let school: TestSchool;
let other: TestSchool;
let mine: Awaited<ReturnType<typeof searchWorld>>;
twoSchools('Search Rest School', 'Other Search Rest School', (w) => ({ service, school, other } = w));
beforeAll(async () => {
  mine = await searchWorld(service, school, 'A');
  await searchWorld(service, other, 'B');
});

describe('GET /search', () => {
  it('answers the hits, best first, as a list with REST field names', async () => {
    const res = await school.admin.get(`/search?q=${encodeURIComponent('introdução')}&types=courses,lessons`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['x-total-count']).toBe('4');
    expect(res.body[0]).toEqual({ type: 'courses', id: mine.titled.id, title: 'Introdução à Química A', excerpt: 'Átomos e moléculas', score: 2.5 });
    expect(res.body.map((h: any) => `${h.type}:${h.id}`).sort()).toEqual(
      [`courses:${mine.titled.id}`, `courses:${mine.described.id}`, `lessons:${mine.released.id}`, `lessons:${mine.locked.id}`].sort(),
    );
  });

  it('pages with page and per_page', async () => {
    const all = await school.admin.get('/search?q=ao');
    const page = await school.admin.get('/search?q=ao&page=2&per_page=2');
    expect(page.status, page.text).toBe(200);
    expect(page.body).toEqual(all.body.slice(2, 4));
    expect(page.headers['x-total-count']).toBe(String(all.body.length));
  });

  it('a student gets no people', async () => {
    const res = await mine.student.get('/search?q=joao&types=students');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([]);
    const admin = await school.admin.get('/search?q=joao&types=students');
    expect(admin.body.map((h: any) => h.id)).toEqual([mine.joao.id]);
  });

  it('422 for a text too short or too long, 400 for an unknown type, 401 without a credential', async () => {
    const short = await school.admin.get('/search?q=a');
    expect(short.status, short.text).toBe(422);
    const long = await school.admin.get(`/search?q=${'x'.repeat(101)}`);
    expect(long.status, long.text).toBe(422);
    expect((await school.admin.get('/search?q=ao&types=orders')).status).toBe(400);
    expect((await service.anonymous.get('/search?q=ao')).status).toBe(401);
  });
});
