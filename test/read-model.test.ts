import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceRefusal, dayOf } from '../src/content/attendance.js';
import { mediaCondition } from '../src/content/media.js';
import { postedTo, visibleChannels, visibleMessages } from '../src/content/messages.js';
import { courseRanks, lessonRanks, productRows, rankedRows } from '../src/content/order.js';
import type { Reader } from '../src/content/reader.js';
import { releasedAmong } from '../src/content/release.js';
import { type ContentScope, courseCondition, enrollmentScope, lessonCondition, pathCondition } from '../src/content/scope.js';
import { projectRoot } from '../src/db/client.js';
import { courses, lessons } from '../src/modules/courses/course.table.js';
import { enrollments } from '../src/modules/enrollments/enrollment.table.js';
import { outboxSubscribers, subscribeToOutbox } from '../src/modules/events/events.js';
import { extraContents } from '../src/modules/extra-contents/extra-content.table.js';
import { media } from '../src/modules/media/media.table.js';
import { channels, messageChannels, messages } from '../src/modules/messages/message.table.js';
import { paths } from '../src/modules/paths/path.table.js';
import { contentOpenings } from '../src/modules/progress/progress.table.js';
import { api, type Fixtures, startCourses } from './support/courses.fixtures.js';
import type { Service, TestSchool } from './support/service.js';

// The read model (src/content/) called directly, with plain values, on the test database: what the
// GraphQL and REST faces show is tested in their own files; here the rules alone.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: Fixtures;
let make: ReturnType<typeof api>;

beforeAll(async () => ({ service, school, other, f, make } = await startCourses('Read Model School', 'Read Model Other')));
afterAll(() => service?.stop());

/** A reader of one school, as plain values (the test's own school condition stands in for auth's). */
function reader(schoolId: number, studentId: number | null = null): Reader {
  return { db: service.db, inSchool: (column: PgColumn) => eq(column, schoolId), seesSchool: (id) => id === schoolId, studentId };
}

const idsWhere = async (table: typeof courses | typeof lessons | typeof paths | typeof media, where: SQL | undefined) =>
  (await service.db.select({ id: table.id }).from(table).where(where).orderBy(asc(table.id))).map((r) => r.id);

/** A course of `modules` modules of `lessons` lessons each (fields for every lesson). */
async function courseWith(modules: number, lessonsEach: number, fields: Record<string, unknown> = {}) {
  const course = await make.course();
  const lessonIds: number[] = [];
  for (let m = 0; m < modules; m++) {
    const module = await make.module(course.id);
    for (let l = 0; l < lessonsEach; l++) lessonIds.push((await make.lesson({ course_module_id: module.id, ...fields })).id);
  }
  return { id: course.id as number, lessonIds };
}

describe('the content scope and the ordering', () => {
  it("a product's courses come in its order: its own by position, then its paths' courses, a course once at its first place", async () => {
    const [a, b, c, d] = [await courseWith(1, 2), await courseWith(1, 1), await courseWith(1, 1), await courseWith(1, 1)];
    const outside = await courseWith(1, 1);
    const product = await f.product(school);
    await f.offer(product.id, [a.id, b.id], [1, 0]);
    await f.pathOf(school, [c.id, a.id, d.id], product.id);

    const r = courseRanks(service.db, [product.id]);
    const ranked = await service.db.select({ id: r.id, rank: r.rank }).from(r).orderBy(asc(r.rank));
    expect(ranked.map((x) => x.id)).toEqual([b.id, a.id, c.id, d.id]);

    const l = lessonRanks(service.db, [product.id]);
    const lessonOrder = (await service.db.select({ id: l.id }).from(l).orderBy(asc(l.rank))).map((x) => x.id);
    expect(lessonOrder).toEqual([...b.lessonIds, ...a.lessonIds, ...c.lessonIds, ...d.lessonIds]);

    const scope: ContentScope = { kind: 'product', productId: product.id };
    expect(await idsWhere(courses, courseCondition(service, scope, courses.id))).toEqual([a.id, b.id, c.id, d.id].sort((x, y) => x - y));
    expect(await idsWhere(courses, courseCondition(service, { kind: 'nothing' }, courses.id))).toEqual([]);
    expect(courseCondition(service, { kind: 'school' }, courses.id)).toBeUndefined();
    expect(await idsWhere(courses, and(eq(courses.id, outside.id), courseCondition(service, scope, courses.id)))).toEqual([]);
    expect(await idsWhere(paths, pathCondition(service, scope, paths.id))).toHaveLength(1);

    // A page in rank order; the page after a row starts after its rank.
    const first = await rankedRows(service.db, courses, courseRanks(service.db, [product.id]), undefined, { limit: 2, offset: 0, afterId: null });
    expect(first.rows.map((row) => row.id)).toEqual([b.id, a.id, c.id]);
    expect(await first.count()).toBe(4);
    const next = await rankedRows(service.db, courses, courseRanks(service.db, [product.id]), undefined, { limit: 2, offset: 0, afterId: a.id });
    expect(next.rows.map((row) => row.id)).toEqual([c.id, d.id]);

    // Rows of several products at once, each in its order, only of the reader's school.
    const rows = await productRows(reader(school.id), courseRanks, courses, [product.id]);
    expect(rows.map((row) => row.row.id)).toEqual([b.id, a.id, c.id, d.id]);
    expect(await productRows(reader(other.id), courseRanks, courses, [product.id])).toEqual([]);
  });
});

describe('the release rule and the attendance rule', () => {
  it('an enrollment sees a lesson once available, release_at passed and release_after days since its own activation', async () => {
    const course = await courseWith(1, 1);
    const later = await courseWith(1, 1, { release_after: 2 });
    const hidden = await courseWith(1, 1, { available: false });
    const product = await f.product(school);
    await f.offer(product.id, [course.id, later.id, hidden.id]);
    const now = service.clock.now();
    const today = enrollmentScope({ id: 1, schoolProductId: product.id, activatedAt: now }, now);
    const early = enrollmentScope({ id: 2, schoolProductId: product.id, activatedAt: new Date(now.getTime() - 3 * 86_400_000) }, now);

    expect(await idsWhere(lessons, lessonCondition(service, today))).toEqual(course.lessonIds);
    expect(await idsWhere(lessons, lessonCondition(service, early))).toEqual([...course.lessonIds, ...later.lessonIds]);

    // Lessons already loaded, checked for several enrollments in one statement, each with its own activation.
    const keys = [today, early].flatMap((scope) => [...later.lessonIds, ...hidden.lessonIds].map((lessonId) => ({ scope, lessonId })));
    expect(await releasedAmong(reader(school.id), keys)).toEqual([false, false, true, false]);
    expect(await releasedAmong(reader(other.id), keys)).toEqual([false, false, false, false]);
  });

  it('attendance: past its openings a read is refused unless one is today; past its minutes, always', async () => {
    const course = await courseWith(1, 1);
    const product = await f.product(school);
    await f.offer(product.id, [course.id]);
    const byAttempts = await f.enrollment(school, product.id, { maxAttendanceType: 'attempts', maxAttendanceLength: 1 });
    const [row] = await service.db.select().from(enrollments).where(eq(enrollments.id, byAttempts.id));
    const now = service.clock.now();
    expect(await attendanceRefusal(service.db, row, now, null)).toBeNull();
    const yesterday = dayOf(new Date(now.getTime() - 86_400_000));
    await service.db.insert(contentOpenings).values({ schoolId: school.id, enrollmentId: row.id, lessonId: course.lessonIds[0], day: yesterday });
    expect(await attendanceRefusal(service.db, row, now, null)).toMatch(/used its 1 content openings/);
    // A write that would open one more is refused too; once one is today's, reads go on.
    expect(await attendanceRefusal(service.db, row, now, true)).toMatch(/content openings/);
    await service.db.insert(contentOpenings).values({ schoolId: school.id, enrollmentId: row.id, lessonId: course.lessonIds[0], day: dayOf(now) });
    expect(await attendanceRefusal(service.db, row, now, null)).toBeNull();

    const byTime = await f.enrollment(school, product.id, { maxAttendanceType: 'time', maxAttendanceLength: 2, timeSpent: 119 });
    const [timed] = await service.db.select().from(enrollments).where(eq(enrollments.id, byTime.id));
    expect(await attendanceRefusal(service.db, timed, now, null)).toBeNull();
    expect(await attendanceRefusal(service.db, { ...timed, timeSpent: 120 }, now, null)).toMatch(/2 minutes of attendance/);
  });
});

describe('the media scope', () => {
  it("a product's media: its lessons' and its extra contents'; an enrollment's only released lessons' and available extra contents'", async () => {
    const ofLesson = await f.mediaItem(school);
    const ofLate = await f.mediaItem(school);
    const ofExtra = await f.mediaItem(school);
    const ofHiddenExtra = await f.mediaItem(school);
    await f.mediaItem(school);
    const course = await courseWith(1, 1);
    const late = await courseWith(1, 1, { release_after: 5 });
    await service.db.update(lessons).set({ mediaId: ofLesson.id }).where(eq(lessons.id, course.lessonIds[0]));
    await service.db.update(lessons).set({ mediaId: ofLate.id }).where(eq(lessons.id, late.lessonIds[0]));
    const product = await f.product(school);
    await f.offer(product.id, [course.id, late.id]);
    await service.db.insert(extraContents).values([
      { schoolId: school.id, resourceType: 'Course', resourceId: course.id, mediaId: ofExtra.id, order: 0, available: true },
      { schoolId: school.id, resourceType: 'SchoolProduct', resourceId: product.id, mediaId: ofHiddenExtra.id, order: 0, available: false },
    ]);
    const now = service.clock.now();
    const scoped = (scope: ContentScope) => idsWhere(media, mediaCondition(service, scope));

    expect(await scoped({ kind: 'product', productId: product.id })).toEqual([ofLesson.id, ofLate.id, ofExtra.id, ofHiddenExtra.id]);
    expect(await scoped(enrollmentScope({ id: 1, schoolProductId: product.id, activatedAt: now }, now))).toEqual([ofLesson.id, ofExtra.id]);
    expect(await scoped({ kind: 'nothing' })).toEqual([]);
    expect(mediaCondition(service, { kind: 'school' })).toBeUndefined();
  });
});

describe('the message scope', () => {
  it("a student sees the school-wide channels, its enrollments' and its products', their messages and those it sent; staff see the school's", async () => {
    const product = await f.product(school);
    const otherProduct = await f.product(school);
    const mine = await f.enrollment(school, product.id);
    const theirs = await f.enrollment(school, otherProduct.id);
    const [wide, ofMine, ofProduct, ofTheirs] = await service.db
      .insert(channels)
      .values([
        { schoolId: school.id, name: 'wide' },
        { schoolId: school.id, enrollmentId: mine.id },
        { schoolId: school.id, schoolProductId: product.id },
        { schoolId: school.id, enrollmentId: theirs.id },
      ])
      .returning();
    const [toTheirs, sentByMe, toWide] = await service.db
      .insert(messages)
      .values([
        { schoolId: school.id, senderId: theirs.studentId, subject: 'a', text: 'a' },
        { schoolId: school.id, senderId: mine.studentId, subject: 'b', text: 'b' },
        { schoolId: school.id, senderId: theirs.studentId, subject: 'c', text: 'c' },
      ])
      .returning();
    await service.db.insert(messageChannels).values([
      { schoolId: school.id, messageId: toTheirs.id, channelId: ofTheirs.id },
      { schoolId: school.id, messageId: sentByMe.id, channelId: ofTheirs.id },
      { schoolId: school.id, messageId: toWide.id, channelId: wide.id },
    ]);
    // Among the rows made here (the wizard makes channels of its own).
    const made = { channels: [wide, ofMine, ofProduct, ofTheirs].map((c) => c.id), messages: [toTheirs, sentByMe, toWide].map((m) => m.id) };
    const channelIds = async (r: Reader) =>
      (await service.db.select({ id: channels.id }).from(channels).where(and(visibleChannels(r), inArray(channels.id, made.channels))).orderBy(asc(channels.id))).map(
        (c) => c.id,
      );
    const messageIds = async (r: Reader, where?: SQL) =>
      (
        await service.db
          .select({ id: messages.id })
          .from(messages)
          .where(and(visibleMessages(r), inArray(messages.id, made.messages), where))
          .orderBy(asc(messages.id))
      ).map((m) => m.id);

    expect(await channelIds(reader(school.id, mine.studentId))).toEqual([wide.id, ofMine.id, ofProduct.id]);
    expect(await channelIds(reader(school.id))).toEqual(made.channels);
    expect(await channelIds(reader(other.id))).toEqual([]);
    expect(await messageIds(reader(school.id, mine.studentId))).toEqual([sentByMe.id, toWide.id]);
    expect(await messageIds(reader(school.id, theirs.studentId), postedTo(service, eq(channels.id, ofTheirs.id)))).toEqual([toTheirs.id, sentByMe.id]);
    expect(await messageIds(reader(other.id))).toEqual([]);
  });
});

describe('the outbox', () => {
  it('knows its consumers only as subscribers: the webhook deliveries subscribe once the modules load; events/ imports nothing of webhooks/', () => {
    expect(outboxSubscribers()).toContain('deliveries');
    const events = readFileSync(join(projectRoot, 'src/modules/events/events.ts'), 'utf8');
    expect(events).toMatch(/from '\.\/event-bus\.js'/);
    expect(events).not.toMatch(/(?:from|import)\s*\(?\s*'[^']*webhooks\//);
    expect(() => subscribeToOutbox({ name: 'inserted', statement: () => undefined as never })).toThrow(/name/);
    expect(() => subscribeToOutbox({ name: 'x); drop table y; --', statement: () => undefined as never })).toThrow(/name/);
  });
});

describe('the layer', () => {
  // The read model sits above auth/ and below http/ and graphql/: it reads tables given plain values.
  it('src/content/ imports only config, errors, db, auth, itself and *.table.ts files', () => {
    const folder = join(projectRoot, 'src/content');
    const files = readdirSync(folder).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    const allowed = /^src\/(?:config\.ts|errors\/|db\/|auth\/|content\/|.*\.table\.ts$)/;
    const offenders = files.flatMap((name) =>
      [...readFileSync(join(folder, name), 'utf8').matchAll(/\bfrom\s+'(\.[^']+)'/g)]
        .map((m) => relative(projectRoot, join(dirname(join(folder, name)), m[1]!.replace(/\.js$/, '.ts'))))
        .filter((target) => !allowed.test(target))
        .map((target) => `src/content/${name} imports ${target}`),
    );
    expect(offenders).toEqual([]);
  });
});
