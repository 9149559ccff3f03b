import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { rowsOf } from '../db/rows.js';
import { courses, lessons } from '../modules/courses/course.table.js';
import { forumQuestions } from '../modules/forums/forum.table.js';
import { users } from '../modules/users/user.table.js';
import type { Reader } from './reader.js';
import { lessonsOfStudent } from './visible-lessons.js';

/**
 * What search (modules/search) looks through, by the names REST's `types=` uses, and how: the read rules of
 * search, beside the other read rules. Who may search which kind is the search module's (search.rules.ts).
 */
export const SEARCH_TYPES = ['students', 'courses', 'lessons', 'forum_questions'] as const;
export type SearchTypeName = (typeof SEARCH_TYPES)[number];

/** Who searches, and when (the release of lessons). */
export interface Searcher {
  reader: Reader;
  now: Date;
}

/** Where each kind's rows are searched: its title and body columns (indexed by schema/migrations/0017_search.sql) and what else narrows them. */
interface Searched {
  schoolId: PgColumn;
  id: PgColumn;
  title: PgColumn;
  body: PgColumn;
  /** More conditions: only students among the users; only released lessons for a student. */
  also?: (searcher: Searcher) => SQL | undefined;
}

const searched: Record<SearchTypeName, Searched> = {
  students: { schoolId: users.schoolId, id: users.id, title: users.fullName, body: users.email, also: () => eq(users.type, 'Student') },
  courses: { schoolId: courses.schoolId, id: courses.id, title: courses.name, body: courses.description },
  lessons: {
    schoolId: lessons.schoolId,
    id: lessons.id,
    title: lessons.title,
    body: lessons.description,
    also: ({ reader, now }) => (reader.studentId === null ? undefined : lessonsOfStudent(reader.studentId, now)),
  },
  forum_questions: { schoolId: forumQuestions.schoolId, id: forumQuestions.id, title: forumQuestions.title, body: forumQuestions.description },
};

/** `%`, `_` and `\` stand for themselves in a LIKE pattern. */
const literal = (text: string) => text.replace(/[\\%_]/g, '\\$&');
/**
 * A column folded as the indexes fold it (f_unaccent: no accents; ILIKE: no case), matching a pattern
 * folded the same way. The expression must stay `f_unaccent(column)` for the trigram indexes to serve it.
 */
const folded = (column: PgColumn, pattern: string) => sql`f_unaccent(${column}) ilike f_unaccent(${pattern})`;
const hasEvery = (column: PgColumn, words: string[]) => and(...words.map((w) => folded(column, `%${literal(w)}%`)))!;

export interface HitRow {
  type: SearchTypeName;
  id: number;
  title: string;
  body: string | null;
  score: number;
  total: number;
}

/**
 * One statement: each kind's matching rows of the school (every word in the title, or every word in the body),
 * scored (title 2, body 1, a title equal to the phrase +1, starting with it +0.5), ranked best first, then by
 * kind and id so that pages never overlap; `total` counts every hit.
 */
export async function searchRows(searcher: Searcher, types: SearchTypeName[], phrase: string, words: string[], limit: number, offset: number): Promise<HitRow[]> {
  const selects = types.map((type, order) => {
    const s = searched[type];
    const inTitle = hasEvery(s.title, words);
    const inBody = hasEvery(s.body, words);
    const score = sql`(case when ${inTitle} then 2 else 0 end + case when ${inBody} then 1 else 0 end
      + case when ${folded(s.title, literal(phrase))} then 1 when ${folded(s.title, `${literal(phrase)}%`)} then 0.5 else 0 end)`;
    return sql`select ${type}::text as type, ${order}::int as type_order, ${s.id} as id, ${s.title} as title, ${s.body} as body, ${score}::float8 as score
      from ${s.schoolId.table} where ${and(searcher.reader.inSchool(s.schoolId), or(inTitle, inBody), s.also?.(searcher))}`;
  });
  const result = await searcher.reader.db.execute(sql`select type, id, title, body, score, (count(*) over ())::int as total
    from (${sql.join(selects, sql` union all `)}) hits
    order by score desc, type_order, id
    limit ${limit} offset ${offset}`);
  return rowsOf<HitRow>(result).map((r) => ({ ...r, id: Number(r.id), score: Number(r.score), total: Number(r.total) }));
}

/** How many hits there are, for a page past the last (whose statement returned no row to count on). */
export async function countHits(searcher: Searcher, types: SearchTypeName[], words: string[]): Promise<number> {
  const counts = types.map((type) => {
    const s = searched[type];
    return sql`select count(*) as n from ${s.schoolId.table} where ${and(searcher.reader.inSchool(s.schoolId), or(hasEvery(s.title, words), hasEvery(s.body, words)), s.also?.(searcher))}`;
  });
  const result = await searcher.reader.db.execute(sql`select coalesce(sum(n), 0)::int as n from (${sql.join(counts, sql` union all `)}) counts`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}
