import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, type SeedResult } from '../src/tools/seed.js';
import { type Service, startService } from './support/service.js';
import { rowsOf } from '../src/db/rows.js';

// npm run seed: the demo school made through the API, a second run creating nothing, and the
// printed tokens (one per role) each answering a query.

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service?.stop());

/** Rows per table; api_tokens grow on purpose (every run prints fresh tokens). */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await service.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const rows = rowsOf<{ table_name: string }>(tables);
  const counts: Record<string, number> = {};
  for (const { table_name } of rows) {
    if (table_name === 'api_tokens') continue;
    const result = await service.db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table_name)}`);
    counts[table_name] = rowsOf<{ n: number }>(result)[0].n;
  }
  return counts;
}

describe('seed', () => {
  let first: SeedResult;
  let firstCounts: Record<string, number>;
  const printed: string[] = [];

  it('makes the demo school with its content', async () => {
    first = await seed(service.database, () => {});
    expect(first.created).toBe(true);
    firstCounts = await rowCounts();
    expect(firstCounts).toMatchObject({ schools: 1, school_products: 3, courses: 4, paths: 2, enrollments: 9, orders: 4, invoices: 4, payments: 4 });
    // The welcome mails of the demo's people, kept readable with no SMTP server (README "Mail").
    expect(firstCounts.mails).toBeGreaterThanOrEqual(7);
    for (const kind of ['school_product_topics', 'course_modules', 'lessons', 'activities', 'exam_questions', 'exam_question_options', 'media', 'forum_questions', 'forum_answers', 'channels', 'messages', 'notifications', 'integrations'])
      expect(firstCounts[kind], kind).toBeGreaterThan(0);
  });

  it('a second run creates nothing and prints fresh tokens', async () => {
    const second = await seed(service.database, (line) => printed.push(line));
    expect(second).toMatchObject({ created: false, schoolId: first.schoolId });
    expect(printed[0]).toMatch(/demo school exists/);
    expect(await rowCounts()).toEqual(firstCounts);
    expect(Object.values(second.tokens)).not.toContain(first.tokens.admin);
  });

  it('prints one working token per role', async () => {
    const tokens = Object.fromEntries(printed.flatMap((line) => [...line.matchAll(/^export \w+=(\S+)\s+# (\w+)$/g)].map((m) => [m[2], m[1]])));
    expect(Object.keys(tokens).sort()).toEqual(['admin', 'app', 'collaborator', 'platform', 'student']);
    for (const [role, token] of Object.entries(tokens)) {
      const res = await service.client(token).graphql('{ schoolProducts(first: 5) { totalCount } enrollments(first: 20) { totalCount } }');
      expect(res.errors, `${role}: ${JSON.stringify(res.errors)}`).toBeUndefined();
      expect(res.data.schoolProducts.totalCount, role).toBe(3);
      expect(res.data.enrollments.totalCount, role).toBe(role === 'student' ? 1 : 9);
    }
  });
});
