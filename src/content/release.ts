import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { lessons } from '../modules/courses/course.table.js';
import type { Reader } from './reader.js';

/** What one enrollment's student may see (scope.ts' ContentScope of kind `enrollment`), at `now`. */
export interface EnrollmentScope {
  kind: 'enrollment';
  productId: number;
  enrollmentId: number;
  activatedAt: Date | null;
  now: Date;
}

/** The columns of a lesson the release rule reads: the `lessons` table, or `l.available` etc. in raw SQL. */
export interface ReleaseColumns {
  available: SQLWrapper;
  releaseAt: SQLWrapper;
  releaseAfter: SQLWrapper;
}

/**
 * THE release rule, the only one: whether a lesson is released to an enrollment that was
 * activated at `activated` (its start when never activated), at the moment `at`. A lesson is
 * released when it is `available`, its `release_at` has passed, and its `release_after` days have
 * passed since the activation. Days are added in SQL (`make_interval(days => n)`), in the session's
 * time zone, which db/client.ts fixes to UTC on every connection: a day is always 24 hours, across
 * daylight-saving changes too. Every read goes through it: root lists and single reads
 * (scope.ts' lessonCondition), nested fields (releasedAmong), progress (progress/progress.sql.ts)
 * and progress writes.
 */
export function releaseRule(lesson: ReleaseColumns, activated: SQL, at: SQL): SQL {
  return sql`(${lesson.available} and (${lesson.releaseAt} is null or ${lesson.releaseAt} <= ${at}) and (${lesson.releaseAfter} is null or ${activated} + make_interval(days => ${lesson.releaseAfter}) <= ${at}))`;
}

/** The columns of a lesson aliased `l` in a raw statement (`join lessons l`), for releaseRule. */
export const LESSON_L: ReleaseColumns = { available: sql`l.available`, releaseAt: sql`l.release_at`, releaseAfter: sql`l.release_after` };

/** A moment as a timestamptz parameter. */
export const momentSql = (moment: Date): SQL => sql`${moment.toISOString()}::timestamptz`;

/** The release rule for an enrollment scope, on the `lessons` table. */
export function releasedInScope(scope: EnrollmentScope): SQL {
  return releaseRule(lessons, momentSql(scope.activatedAt ?? scope.now), momentSql(scope.now));
}

/**
 * When a lesson opens to an enrollment activated at `activated`: the later of its `release_at` and
 * `release_after` days after the activation (the same day arithmetic as releaseRule); null when it
 * has neither (it is open from the start).
 */
export function opensAt(lesson: ReleaseColumns, activated: SQL): SQL {
  return sql`greatest(${lesson.releaseAt}, case when ${lesson.releaseAfter} > 0 then ${activated} + make_interval(days => ${lesson.releaseAfter}) end)`;
}

/** Whether a lesson is released to an enrollment now, and when it opens (or opened) to it (opensAt). */
export interface LessonRelease {
  released: boolean;
  releasedAt: Date | null;
}

/** The release of the `lessons` row in an enrollment scope, as columns to select beside it. */
export function releaseColumns(scope: EnrollmentScope) {
  const activated = momentSql(scope.activatedAt ?? scope.now);
  return {
    released: sql<boolean>`${releaseRule(lessons, activated, momentSql(scope.now))}`.mapWith(Boolean),
    releasedAt: sql<Date | null>`${opensAt(lessons, activated)}`.mapWith(lessons.releaseAt),
  };
}

/**
 * The release of each of `keys` (a lesson of the reader's school in an enrollment scope), for lessons
 * already loaded (nested fields: `enrollment { courses { modules { lessons } } }`), where each
 * enrollment has its own activation: ONE statement for the whole batch, by releaseRule and opensAt.
 * A lesson outside the reader's school is not released.
 */
export async function releaseAmong(reader: Reader, keys: readonly { scope: EnrollmentScope; lessonId: number }[]): Promise<LessonRelease[]> {
  if (keys.length === 0) return [];
  const values = sql.join(
    keys.map((k, i) => sql`(${i}::int, ${k.lessonId}::int, ${momentSql(k.scope.activatedAt ?? k.scope.now)}, ${momentSql(k.scope.now)})`),
    sql`, `,
  );
  const rows = await reader.db
    .select({
      i: sql<number>`k.i`.mapWith(Number),
      released: sql<boolean>`${releaseRule(lessons, sql`k.activated`, sql`k.at`)}`.mapWith(Boolean),
      releasedAt: sql<Date | null>`${opensAt(lessons, sql`k.activated`)}`.mapWith(lessons.releaseAt),
    })
    .from(lessons)
    .innerJoin(sql`(values ${values}) as k(i, lesson_id, activated, at)`, sql`${lessons.id} = k.lesson_id`)
    .where(reader.inSchool(lessons.schoolId));
  const byKey = new Map(rows.map((r) => [r.i, { released: r.released, releasedAt: r.releasedAt }]));
  return keys.map((_, i) => byKey.get(i) ?? { released: false, releasedAt: null });
}

/** Which of `keys` are released (releaseAmong). */
export async function releasedAmong(reader: Reader, keys: readonly { scope: EnrollmentScope; lessonId: number }[]): Promise<boolean[]> {
  return (await releaseAmong(reader, keys)).map((r) => r.released);
}
