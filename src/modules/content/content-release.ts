import { and, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { inSchool } from '../../auth/tenancy.js';
import { type Context, defineLoader } from '../../graphql/context.js';
import { lessons } from '../courses/course.table.js';

/** What one enrollment's student may see (content-scope.ts' ContentScope of kind `enrollment`), at `now`. */
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
 * (lessonCondition), nested fields (content-view.ts' visibleLessons), progress
 * (progress/progress.sql.ts) and progress writes.
 */
export function releaseRule(lesson: ReleaseColumns, activated: SQL, at: SQL): SQL {
  return sql`(${lesson.available} and (${lesson.releaseAt} is null or ${lesson.releaseAt} <= ${at}) and (${lesson.releaseAfter} is null or ${activated} + make_interval(days => ${lesson.releaseAfter}) <= ${at}))`;
}

/** A moment as a timestamptz parameter. */
export const momentSql = (moment: Date): SQL => sql`${moment.toISOString()}::timestamptz`;

/** The release rule for an enrollment scope, on the `lessons` table. */
export function releasedInScope(scope: EnrollmentScope): SQL {
  return releaseRule(lessons, momentSql(scope.activatedAt ?? scope.now), momentSql(scope.now));
}

const scopeKey = (scope: EnrollmentScope) => `${scope.enrollmentId}|${(scope.activatedAt ?? scope.now).toISOString()}|${scope.now.toISOString()}`;

/**
 * Whether a lesson of the caller's school is released in an enrollment scope, for rows already
 * loaded in a batch (nested fields: `enrollment { courses { modules { lessons } } }`), where each
 * enrollment has its own activation: the lessons of a whole batch of scopes are checked in ONE
 * statement, by releaseRule. Read through releasedLessons.
 */
const releasedLesson = defineLoader<{ scope: EnrollmentScope; lessonId: number }, boolean>(
  'content.releasedLesson',
  async (ctx, keys) => {
    const values = sql.join(
      keys.map((k, i) => sql`(${i}::int, ${k.lessonId}::int, ${momentSql(k.scope.activatedAt ?? k.scope.now)}, ${momentSql(k.scope.now)})`),
      sql`, `,
    );
    const rows = await ctx.db
      .select({ i: sql<number>`k.i`.mapWith(Number) })
      .from(lessons)
      .innerJoin(sql`(values ${values}) as k(i, lesson_id, activated, at)`, sql`${lessons.id} = k.lesson_id`)
      .where(and(inSchool(ctx, lessons.schoolId), releaseRule(lessons, sql`k.activated`, sql`k.at`)));
    const released = new Set(rows.map((r) => r.i));
    return keys.map((_, i) => released.has(i));
  },
  (k) => `${scopeKey(k.scope)}#${k.lessonId}`,
);

/** The lessons among `rows` (loaded for a module or a product) that the enrollment scope releases, in their order. */
export async function releasedLessons<T extends { id: number }>(ctx: Context, scope: EnrollmentScope, rows: T[]): Promise<T[]> {
  const loader = ctx.loaders.get(releasedLesson);
  const released = await Promise.all(rows.map((row) => loader.load({ scope, lessonId: row.id })));
  return rows.filter((_, i) => released[i]);
}
