import { eq, inArray, sql } from 'drizzle-orm';
import { LESSON_L, momentSql, releaseRule } from '../../content/release.js';
import { PRODUCT_COURSES } from '../../content/scope.js';
import { pollingJob } from '../../db/polling-job.js';
import type { Database, Queryable } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { lessons } from '../courses/course.table.js';
import { readsAs } from '../enrollments/enrollment.status.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { enqueueMails } from './mail.enqueue.js';
import { lessonReleaseNotices } from './mail.table.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** How often each instance looks for lessons just released (the mail's lateness at most). */
export const DEFAULT_DRIP_INTERVAL_MS = MINUTE;
/**
 * How far back a run looks. A release older than this is not announced (the service was down
 * longer than that: stale news), and notices older than it are pruned, since no run can find
 * their lesson again.
 */
export const DRIP_CATCH_UP_MS = 3 * DAY;

export interface DripOptions {
  /** Enrollments mailed per run (200); the rest wait for the next run. */
  batchSize?: number;
  catchUpMs?: number;
}

/**
 * One run of the drip mail: for active enrollments, the lessons released by drip between
 * `now - catchUp` and `now` (released at `now` by content/release.ts' rule, not released at the
 * enrollment's activation: lessons open from day 0 are never announced) that no notice names yet,
 * claimed by inserting their notices (unique per enrollment and lesson, ON CONFLICT DO NOTHING: of
 * two instances only one inserts a claim) and mailed in the same transaction, ONE mail per
 * enrollment naming every lesson it claimed. The school's disabled kinds and the person's
 * unsubscribing hold (enqueueMails). Returns how many mails were written.
 */
export async function announceReleasedLessons(db: Queryable, now: Date, options: DripOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? 200;
  const since = new Date(now.getTime() - (options.catchUpMs ?? DRIP_CATCH_UP_MS));
  return db.transaction(async (tx) => {
    const at = momentSql(now);
    const activated = sql`${enrollments.activatedAt}`;
    // The same claims in the same order in every instance: two runs wait on each other, never deadlock.
    const result = await tx.execute(sql`
      with product_courses as (${PRODUCT_COURSES}), due as (
        select ${enrollments.schoolId} as school_id, ${enrollments.id} as enrollment_id, l.id as lesson_id,
          greatest(l.release_at, ${activated} + make_interval(days => coalesce(l.release_after, 0))) as released_at
        from ${enrollments}
        join product_courses c on c.school_product_id = ${enrollments.schoolProductId}
        join course_module_links m on m.course_id = c.course_id
        join lessons l on l.course_module_id = m.course_module_id and (l.release_at is not null or l.release_after > 0)
        where ${readsAs('active', now)} and ${activated} is not null
          and ${releaseRule(LESSON_L, activated, at)}
          and not ${releaseRule(LESSON_L, activated, sql`greatest(${activated}, ${momentSql(since)})`)}
          and not exists (select 1 from ${lessonReleaseNotices} n where n.enrollment_id = ${enrollments.id} and n.lesson_id = l.id)
      ), chosen as (
        select distinct enrollment_id from due order by enrollment_id limit ${batchSize}
      )
      insert into ${lessonReleaseNotices} (school_id, enrollment_id, lesson_id, released_at)
      select distinct on (d.enrollment_id, d.lesson_id) d.school_id, d.enrollment_id, d.lesson_id, d.released_at
      from due d join chosen using (enrollment_id)
      order by d.enrollment_id, d.lesson_id
      on conflict (enrollment_id, lesson_id, school_id) do nothing
      returning school_id, enrollment_id, lesson_id`);
    const claimed = rowsOf<{ school_id: number; enrollment_id: number; lesson_id: number }>(result).map((r) => ({
      schoolId: Number(r.school_id),
      enrollmentId: Number(r.enrollment_id),
      lessonId: Number(r.lesson_id),
    }));
    await tx.delete(lessonReleaseNotices).where(sql`${lessonReleaseNotices.releasedAt} < ${momentSql(since)}`);
    if (claimed.length === 0) return 0;

    const lessonRows = await tx
      .select({ id: lessons.id, title: lessons.title, position: lessons.position })
      .from(lessons)
      .where(inArray(lessons.id, [...new Set(claimed.map((c) => c.lessonId))]));
    const enrollmentRows = await tx
      .select({ id: enrollments.id, studentId: enrollments.studentId, productTitle: schoolProducts.title })
      .from(enrollments)
      .leftJoin(schoolProducts, eq(schoolProducts.id, enrollments.schoolProductId))
      .where(inArray(enrollments.id, [...new Set(claimed.map((c) => c.enrollmentId))]));
    const lessonById = new Map(lessonRows.map((l) => [l.id, l]));
    const enrollmentById = new Map(enrollmentRows.map((e) => [e.id, e]));

    // Per school, per enrollment: the lessons in their order in the course.
    const bySchool = new Map<number, Map<number, { id: number; title: string; position: number }[]>>();
    for (const c of claimed) {
      const lesson = lessonById.get(c.lessonId);
      if (!lesson) continue;
      const schoolGroup = bySchool.get(c.schoolId) ?? new Map();
      bySchool.set(c.schoolId, schoolGroup);
      schoolGroup.set(c.enrollmentId, [...(schoolGroup.get(c.enrollmentId) ?? []), lesson]);
    }
    let written = 0;
    for (const [schoolId, group] of bySchool) {
      const recipients = [...group].flatMap(([enrollmentId, released]) => {
        const enrollment = enrollmentById.get(enrollmentId);
        if (!enrollment) return [];
        released.sort((a, b) => a.position - b.position || a.id - b.id);
        const [first] = released;
        return [
          {
            userId: enrollment.studentId,
            data: {
              productTitle: enrollment.productTitle ?? '',
              lessonTitle: first.title,
              lessonId: first.id,
              lessons: released.map(({ id, title }) => ({ id, title })),
            },
          },
        ];
      });
      written += (await enqueueMails(tx, schoolId, 'lesson_released', recipients)).length;
    }
    return written;
  });
}

export interface DripMailerOptions extends DripOptions {
  /** The clock (tests pass the TestClock's). */
  now?: () => Date;
  intervalMs?: number;
  /** false: no timer, runs only through runOnce (tests). */
  poll?: boolean;
  onError?: (error: unknown) => void;
}

export interface DripMailer {
  /** One run at `now` (the clock's by default); returns how many mails it wrote. */
  runOnce(now?: Date): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The drip mail job, run in every instance (server.ts, beside the mail worker): every interval,
 * announceReleasedLessons. The notices' unique key keeps several instances from mailing twice.
 */
export function startDripMailer(database: Pick<Database, 'db'>, options: DripMailerOptions = {}): DripMailer {
  const clock = options.now ?? (() => new Date());
  const runOnce = (now: Date = clock()) => announceReleasedLessons(database.db, now, options);
  // A run that wrote a full batch of mails runs again at once (a backlog of releases).
  const job = pollingJob(() => runOnce(), {
    batchSize: options.batchSize ?? 200,
    intervalMs: options.intervalMs ?? DEFAULT_DRIP_INTERVAL_MS,
    poll: options.poll,
    onError: options.onError,
  });
  return { runOnce, stop: job.stop };
}
