import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessOf, ROLES } from '../../src/auth/role-matrix.js';
import { rowsOf } from '../../src/db/rows.js';
import { searchedLists, searchTypeRules } from '../../src/modules/search/search.rules.js';
import { SEARCH_COST } from '../../src/modules/search/search.resolver.js';
import { service as assembled } from '../../src/service-modules.js';
import { hitsOf, keyOf, searchQuery, searchWorld } from '../support/search.fixtures.js';
import type { Client, Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// search(text, types): accent- and case-insensitive, ranked, paginated, scoped to the school and to what the role may list.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let mine: Awaited<ReturnType<typeof searchWorld>>;
let theirs: Awaited<ReturnType<typeof searchWorld>>;
twoSchools('Search School', 'Other Search School', (w) => ({ service, school, other } = w));
beforeAll(async () => {
  mine = await searchWorld(service, school, 'A');
  theirs = await searchWorld(service, other, 'B');
});

const keys = (hits: { nodes: { type: string; id: string }[] }) => hits.nodes.map(keyOf);

describe('search: matching', () => {
  it('finds "João" for "joao", for "JOÃO" and for "silva", and by e-mail', async () => {
    for (const text of ['joao', 'JOÃO', 'silva', 'Joao da']) {
      const hits = await hitsOf(school.admin, text, { types: ['students'] });
      expect(keys(hits), text).toEqual([`students:${mine.joao.id}`]);
      expect(hits.nodes[0].title).toBe('João da Silva A');
    }
    const byEmail = await hitsOf(school.admin, 'joao.a@EXAMPLE', { types: ['students'] });
    expect(keys(byEmail)).toEqual([`students:${mine.joao.id}`]);
    expect(byEmail.nodes[0].excerpt).toBe('joao.a@example.com');
  });

  it('finds "Introdução" for "Introducao", whatever the case, every word anywhere in the title or the body', async () => {
    const hits = await hitsOf(school.admin, 'Introducao', { types: ['courses'] });
    expect(keys(hits)).toEqual([`courses:${mine.titled.id}`, `courses:${mine.described.id}`]);
    expect((await hitsOf(school.admin, 'quimica INTRODUCAO', { types: ['courses'] })).nodes.map((n) => Number(n.id))).toEqual([mine.titled.id]);
    expect((await hitsOf(school.admin, 'introducao zebra', { types: ['courses'] })).totalCount).toBe(0);
  });

  it('ranks a title match above a body match, whatever the ids', async () => {
    const hits = await hitsOf(school.admin, 'introducao');
    const scores = hits.nodes.map((n) => n.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const titled = hits.nodes.find((n) => keyOf(n) === `courses:${mine.titled.id}`)!;
    const described = hits.nodes.find((n) => keyOf(n) === `courses:${mine.described.id}`)!;
    expect(titled.score).toBeGreaterThan(described.score);
    // Every title match comes before the body-only matches (the locked lesson and the biology course).
    const bodyOnly = new Set([`courses:${mine.described.id}`, `lessons:${mine.locked.id}`]);
    const order = keys(hits);
    expect(order.slice(-2).sort()).toEqual([...bodyOnly].sort());
    expect(described.excerpt).toBe('Uma breve INTRODUÇÃO às células');
  });

  it('excerpts a body without its markup', async () => {
    const hits = await hitsOf(school.admin, 'protons', { types: ['lessons'] });
    expect(hits.nodes).toEqual([{ type: 'lessons', id: String(mine.released.id), title: 'Introdução aos átomos A', excerpt: 'Prótons e elétrons', score: 1 }]);
  });

  it('takes LIKE wildcards literally', async () => {
    expect((await hitsOf(school.admin, '%%')).totalCount).toBe(0);
    expect((await hitsOf(school.admin, '__')).totalCount).toBe(0);
  });
});

describe('search: who finds what', () => {
  it("never returns another school's rows", async () => {
    const ours = await hitsOf(school.admin, 'introducao', { first: 100 });
    const theirKeys = new Set(
      [
        `students:${theirs.joao.id}`,
        `courses:${theirs.titled.id}`,
        `courses:${theirs.described.id}`,
        `lessons:${theirs.released.id}`,
        `lessons:${theirs.locked.id}`,
        `forum_questions:${theirs.question.id}`,
      ],
    );
    expect(keys(ours).filter((k) => theirKeys.has(k))).toEqual([]);
    expect(ours.nodes.every((n) => n.title.endsWith(' A'))).toBe(true);
    const joao = await hitsOf(other.admin, 'joao');
    expect(keys(joao)).toEqual([`students:${theirs.joao.id}`]);
    // A school's student credential does not reach the other school either.
    expect((await hitsOf(mine.student, 'introducao')).nodes.every((n) => n.title.endsWith(' A'))).toBe(true);
  });

  it('a student finds courses, forum questions and the lessons its enrollment released; never people, even when asking for them', async () => {
    const all = await hitsOf(mine.student, 'introducao');
    expect(keys(all).sort()).toEqual(
      [`courses:${mine.titled.id}`, `courses:${mine.described.id}`, `lessons:${mine.released.id}`, `forum_questions:${mine.question.id}`].sort(),
    );
    expect(await hitsOf(mine.student, 'joao', { types: ['students'] })).toMatchObject({ totalCount: 0, nodes: [] });
    expect((await hitsOf(mine.student, 'silva')).totalCount).toBe(0);
    // A student of the school with no enrollment finds no lesson at all.
    const stranger = await service.token('student', school.id, mine.maria.id);
    expect((await hitsOf(stranger, 'introducao', { types: ['lessons'] })).totalCount).toBe(0);
  });

  it('a locked lesson shows to the student once the drip releases it', async () => {
    const before = await hitsOf(mine.student, 'trancada', { types: ['lessons'] });
    expect(before.totalCount).toBe(0);
    service.clock.advanceDays(10);
    try {
      expect(keys(await hitsOf(mine.student, 'trancada', { types: ['lessons'] }))).toEqual([`lessons:${mine.locked.id}`]);
    } finally {
      service.clock.advanceDays(-10);
    }
  });

  it('staff find people as their list does: a collaborator and an app credential find students; every role finds every lesson', async () => {
    for (const role of ['collaborator', 'app'] as const) {
      const client: Client = await service.token(role, school.id);
      expect(keys(await hitsOf(client, 'joao')), role).toEqual([`students:${mine.joao.id}`]);
      expect((await hitsOf(client, 'trancada', { types: ['lessons'] })).totalCount, role).toBe(1);
    }
  });

  it("each kind's rule is the rule of the list its rows come from", () => {
    for (const [type, list] of Object.entries(searchedLists)) {
      const rule = assembled.roleMatrix.operations[list];
      for (const role of ROLES) expect(accessOf(searchTypeRules[type as keyof typeof searchedLists], role), `${type} ${role}`).toBe(accessOf(rule, role));
    }
    expect(assembled.roleMatrix.operations['Query.search']).toMatchObject({ student: 'own', admin: 'allow', collaborator: 'allow' });
  });

  it('needs a credential', async () => {
    const res = await service.anonymous.graphql(searchQuery, { text: 'joao' });
    expect(res.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('search: pages, bounds and cost', () => {
  it('pages by cursor and by number without overlap, the total over every page', async () => {
    const whole = await hitsOf(school.admin, 'a', { first: 100 }).catch(() => null);
    expect(whole).toBeNull(); // one character is too short
    const all = await hitsOf(school.admin, 'ao', { first: 100 });
    expect(all.totalCount).toBeGreaterThanOrEqual(5);
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: Awaited<ReturnType<typeof hitsOf>> = await hitsOf(school.admin, 'ao', { first: 2, after });
      expect(page.totalCount).toBe(all.totalCount);
      expect(page.nodes.length).toBeLessThanOrEqual(2);
      expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
      expect(page.edges.at(-1)?.cursor ?? null).toBe(page.pageInfo.endCursor);
      seen.push(...keys(page));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(keys(all));
    const second = await hitsOf(school.admin, 'ao', { page: 2, perPage: 2 });
    expect(keys(second)).toEqual(keys(all).slice(2, 4));
    const past = await hitsOf(school.admin, 'ao', { page: 50, perPage: 2 });
    expect(past).toMatchObject({ nodes: [], totalCount: all.totalCount });
  });

  it('refuses a text shorter than 2 or longer than 100 characters (BAD_USER_INPUT naming text), and a forged cursor', async () => {
    for (const [text, code] of [['a', 'too_short'], [' b ', 'too_short'], ['x'.repeat(101), 'too_long']] as const) {
      const res = await school.admin.graphql(searchQuery, { text });
      expect(res.errors?.[0].extensions, text).toMatchObject({ code: 'BAD_USER_INPUT', field: ['text'] });
      expect(res.errors?.[0].message).toMatch(code === 'too_short' ? /too short/ : /too long/);
    }
    expect((await school.admin.graphql(searchQuery, { text: 'é'.repeat(100) })).errors).toBeUndefined();
    const forged = await school.admin.graphql(searchQuery, { text: 'ao', after: Buffer.from('id:3').toString('base64url') });
    expect(forged.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: ['after'] });
  });

  it('costs its own share besides its page in the query-cost model', async () => {
    const one = await school.admin.graphql(`{ search(text: "ao", first: 1) { nodes { id } } }`);
    const ten = await school.admin.graphql(`{ search(text: "ao", first: 10) { nodes { id } } }`);
    const cost = (res: any) => res.extensions.cost.requested as number;
    expect(cost(one)).toBe(SEARCH_COST + 1 + 1);
    expect(cost(ten)).toBe(SEARCH_COST + 1 + 10);
  });

  it('is one statement whatever the kinds and the hits', async () => {
    await hitsOf(school.admin, 'joao');
    const one = await service.countStatements(() => hitsOf(school.admin, 'joao', { types: ['students'] }));
    const all = await service.countStatements(() => hitsOf(school.admin, 'ao', { first: 100 }));
    expect(all).toBe(one);
  });

  it('the searched expressions are indexed (trigram GIN indexes on f_unaccent)', async () => {
    const rows = rowsOf<{ indexname: string; indexdef: string }>(
      await service.db.execute(sql`select indexname, indexdef from pg_indexes where indexname like '%\_search\_%' order by indexname`),
    );
    expect(rows.map((r) => r.indexname)).toEqual([
      'courses_search_description_idx',
      'courses_search_name_idx',
      'forum_questions_search_description_idx',
      'forum_questions_search_title_idx',
      'lessons_search_description_idx',
      'lessons_search_title_idx',
      'users_search_email_idx',
      'users_search_full_name_idx',
    ]);
    for (const row of rows) expect(row.indexdef).toMatch(/USING gin \(f_unaccent\(\w+\) gin_trgm_ops\)/);
  });
});
