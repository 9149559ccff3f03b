import { lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { EVENT_NAMES, parsePayload, type EventName } from '../src/modules/events/catalog.js';
import { domainEvents } from '../src/modules/events/domain-event.table.js';
import { emitEvent } from '../src/modules/events/events.js';
import { pruneEvents } from '../src/modules/events/prune.js';
import { type Client, type Service, startService, type TestSchool } from './support/service.js';
import { graphql } from './support/graphql.js';
import { rowsOf } from '../src/db/rows.js';

// The event catalog, the pull feed (GraphQL and REST) and pruning.

let service: Service;
let school: TestSchool;
let app: Client;

beforeAll(async () => {
  service = await startService();
  school = await service.school('Events School');
  app = await service.token('app', school.id);
});
afterAll(() => service?.stop());

const FEED = graphql(`query ($after: String, $names: [EventName!], $first: Int) {
  events(after: $after, names: $names, first: $first) { nodes { id name type version subjectType subjectId payload cursor createdAt } pageInfo { hasNextPage endCursor } } }`);

/**
 * Waits until every event committed so far is readable. On a PostgreSQL server transaction ids are
 * the cluster's: another database's transaction still running (another test file's, a CREATE
 * DATABASE) holds the feed back until it ends, which is the price of never skipping an event.
 */
async function caughtUp() {
  for (let i = 0; i < 1500; i++) {
    const result = await service.db.execute(
      sql`select (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint > coalesce(max(${domainEvents.txid}), 0) as ok from ${domainEvents}`,
    );
    if (rowsOf<{ ok: boolean }>(result)[0]!.ok) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the feed did not catch up within 30 s');
}

/** Reads the feed from `after` to its end, page by page (first waiting for what is committed, unless told not to). */
async function readAll(client: Client, after: string | null = null, names?: string[], first = 100, wait = true) {
  if (wait) await caughtUp();
  const events: any[] = [];
  let cursor = after;
  for (;;) {
    const res = await client.graphql(FEED, { after: cursor, names, first });
    expect(res.errors).toBeUndefined();
    const page = res.data.events;
    events.push(...page.nodes);
    cursor = page.pageInfo.endCursor;
    if (!page.pageInfo.hasNextPage) return { events, cursor };
  }
}

describe('the pull feed', () => {
  it('given changes through GraphQL, then the feed shows their events, each payload fitting the catalog', async () => {
    const start = (await readAll(app)).cursor;
    const created = await school.admin.graphql(`mutation { createCourse(input: {name: "Algebra", code: "ALG"}) { course { id } errors { code } } }`);
    const id = created.data.createCourse.course.id;
    await school.admin.graphql(`mutation ($id: ID!) { updateCourse(id: $id, input: {name: "Algebra II"}) { errors { code } } }`, { id });
    await school.admin.graphql(`mutation ($id: ID!) { deleteCourse(id: $id) { errors { code } } }`, { id });
    const { events, cursor } = await readAll(app, start);
    expect(events.map((e) => e.type)).toEqual(['course.created', 'course.updated', 'course.deleted']);
    expect(events.map((e) => e.name)).toEqual(['COURSE_CREATED', 'COURSE_UPDATED', 'COURSE_DELETED']);
    expect(events[1]).toMatchObject({ version: 1, subjectType: 'Course', subjectId: id, payload: { name: 'Algebra II', code: 'ALG', changed: ['name'] } });
    for (const e of events) expect(parsePayload(e.type as EventName, e.payload).success).toBe(true);
    // Reading on from the end: an empty page keeps the cursor.
    const again = await app.graphql(FEED, { after: cursor });
    expect(again.data.events).toEqual({ nodes: [], pageInfo: { hasNextPage: false, endCursor: cursor } });
    // names filters.
    const only = await readAll(app, start, ['COURSE_DELETED']);
    expect(only.events.map((e) => e.type)).toEqual(['course.deleted']);
  });

  it('given small pages, then endCursor walks the feed with no gap and no repeat', async () => {
    const all = (await readAll(app)).events.map((e) => e.id);
    const paged = (await readAll(app, null, undefined, 1)).events.map((e) => e.id);
    expect(paged).toEqual(all);
    expect(new Set(paged).size).toBe(paged.length);
  });

  it('given a cursor this service did not give, then BAD_USER_INPUT naming after', async () => {
    const res = await app.graphql(FEED, { after: 'bm9wZQ' });
    expect(res.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('given roles, then platform, admin and app read it, collaborators and students are refused; another school sees none', async () => {
    const other = await service.school('Events Other');
    const mine = await readAll(app);
    const theirs = await readAll(other.admin);
    expect(mine.events.length).toBeGreaterThan(0);
    expect(theirs.events.some((e) => mine.events.some((m) => m.id === e.id))).toBe(false);
    expect((await service.platform.forSchool(school.id).graphql(FEED, {})).errors).toBeUndefined();
    for (const role of ['collaborator', 'student'] as const) {
      const res = await (await service.token(role, school.id, school.adminId)).graphql(FEED, {});
      expect(res.errors?.[0].extensions.code).toBe('FORBIDDEN');
    }
  });

  it('REST GET /events gives the events with their cursors; names as a comma list or names[]', async () => {
    const res = await app.get('/events');
    expect(res.status).toBe(200);
    const last = res.body.at(-1);
    expect(last).toMatchObject({ type: expect.any(String), cursor: expect.any(String) });
    const after = await app.get(`/events?after=${last.cursor}`);
    expect(after.body).toEqual([]);
    const page = await app.get('/events?page=1&per_page=2');
    expect(page.body).toHaveLength(2);
    expect((await app.get('/events?names=course.created,COURSE_DELETED')).body.map((e: any) => e.type)).toEqual(['course.created', 'course.deleted']);
    expect((await app.get('/events?names[]=COURSE_CREATED')).body.map((e: any) => e.type)).toEqual(['course.created']);
  });
});

describe('new events', () => {
  it('lesson updated and deleted, school product created and updated, enrollment canceled', async () => {
    const { cursor } = await readAll(app);
    const lesson = await school.admin.graphql(`mutation { createLesson(input: {title: "L1", type: "Text"}) { lesson { id } errors { field code } } }`);
    const lessonId = lesson.data.createLesson.lesson.id;
    await school.admin.graphql(`mutation ($id: ID!) { updateLesson(id: $id, input: {title: "L2"}) { errors { code } } }`, { id: lessonId });
    await school.admin.graphql(`mutation ($id: ID!) { deleteLesson(id: $id) { errors { code } } }`, { id: lessonId });
    const product = await school.admin.graphql(`mutation { createSchoolProduct(input: {title: "P"}) { schoolProduct { id } errors { code } } }`);
    const productId = product.data.createSchoolProduct.schoolProduct.id;
    await school.admin.graphql(`mutation ($id: ID!) { updateSchoolProduct(id: $id, input: {title: "P2"}) { errors { code } } }`, { id: productId });
    const { events } = await readAll(app, cursor);
    expect(events.map((e) => e.type)).toEqual(['lesson.created', 'lesson.updated', 'lesson.deleted', 'school_product.created', 'school_product.updated']);
    expect(events[4].payload).toEqual({ title: 'P2', published: false, changed: ['title'] });
  });
});

describe('catalog', () => {
  it('every event name has a JSON Schema', async () => {
    const { payloadJsonSchema } = await import('../src/modules/events/catalog.js');
    for (const name of EVENT_NAMES) expect(payloadJsonSchema(name)).toMatchObject({ type: 'object' });
  });
});

describe('pruning', () => {
  it('deletes events older than the retention, keeps the rest; refuses less than 2 days', async () => {
    const now = new Date();
    await service.db.insert(domainEvents).values([
      { schoolId: school.id, name: 'course.created', subjectType: 'Course', subjectId: 1, payload: {}, createdAt: new Date(now.getTime() - 31 * 86_400_000) },
      { schoolId: school.id, name: 'course.created', subjectType: 'Course', subjectId: 2, payload: {}, createdAt: new Date(now.getTime() - 29 * 86_400_000) },
    ]);
    expect(await pruneEvents(service.db, now, 30)).toBeGreaterThanOrEqual(1);
    const old = await service.db.select().from(domainEvents).where(lt(domainEvents.createdAt, new Date(now.getTime() - 30 * 86_400_000)));
    expect(await service.db.select().from(domainEvents).where(lt(domainEvents.createdAt, new Date(now.getTime() - 28 * 86_400_000)))).toHaveLength(1);
    expect(old).toEqual([]);
    await expect(pruneEvents(service.db, now, 1)).rejects.toThrow(/at least 2/);
  });
});

describe('a reader of the pull feed that polls while writers commit out of order', () => {
  it('misses nothing and sees nothing twice', async () => {
    const second: Database | null = service.databaseUrl ? await openDatabase({ url: service.databaseUrl, maxConnections: 2 }) : null;
    try {
      const seen: number[] = [];
      let cursor = (await readAll(app)).cursor;
      const poll = async (wait = true) => {
        const r = await readAll(app, cursor, undefined, 2, wait);
        seen.push(...r.events.map((e) => Number(e.id)));
        cursor = r.cursor;
      };
      const emit = (db: any, n: number) => emitEvent(db, { schoolId: school.id, name: 'media.processed', subjectType: 'Media', subjectId: n, payload: { status: 'ready' } });
      if (second) {
        // Transaction A takes an id first and stays open; B commits after it.
        let releaseA!: () => void;
        const aOpen = new Promise<void>((resolve) => (releaseA = resolve));
        let aEmitted!: () => void;
        const aReady = new Promise<void>((resolve) => (aEmitted = resolve));
        const a = second.db.transaction(async (tx) => {
          await emitEvent(tx, { schoolId: school.id, name: 'media.processed', subjectType: 'Media', subjectId: 1, payload: { status: 'ready' } });
          aEmitted();
          await aOpen;
        });
        await aReady;
        await emit(service.db, 2);
        // A is open: B, committed after it, is held back (a reader that took it would move past A).
        await poll(false);
        expect(seen).toEqual([]);
        releaseA();
        await a;
        await poll();
      } else {
        await service.db.transaction(async (tx) => {
          await emit(tx, 1);
        });
        await emit(service.db, 2);
        await poll();
      }
      await poll();
      const committed = (await service.db.select({ id: domainEvents.id }).from(domainEvents).where(sql`${domainEvents.subjectType} = 'Media' and ${domainEvents.schoolId} = ${school.id}`)).map((r) => r.id);
      expect(seen.sort()).toEqual(committed.sort());
    } finally {
      await second?.close();
    }
  });
});

describe('several writers committing in random order while a reader polls in small pages', () => {
  it('the reader ends with every committed event exactly once, and none of a rolled-back writer', async () => {
    const second: Database | null = service.databaseUrl ? await openDatabase({ url: service.databaseUrl, maxConnections: 6 }) : null;
    const db = second?.db ?? service.db;
    try {
      let cursor = (await readAll(app)).cursor;
      const seen: number[] = [];
      let writing = true;
      const reader = (async () => {
        let page = 1;
        while (writing) {
          const r = await readAll(app, cursor, ['MEDIA_REPROCESS_REQUESTED'], (page++ % 3) + 1, false);
          seen.push(...r.events.map((e) => Number(e.id)));
          cursor = r.cursor;
          await new Promise((done) => setTimeout(done, 5));
        }
      })();
      const pause = () => new Promise((done) => setTimeout(done, Math.floor(Math.random() * 15)));
      const writers = Array.from({ length: 12 }, (_, w) =>
        db
          .transaction(async (tx) => {
            for (let n = 0; n < 3; n++) {
              await emitEvent(tx, { schoolId: school.id, name: 'media.reprocess_requested', subjectType: 'Media', subjectId: w * 10 + n, payload: { type: 'video', previousStatus: 'ready' } });
              await pause();
            }
            if (w % 5 === 4) throw new Error('rolled back on purpose');
          })
          .catch((error: Error) => {
            if (error.message !== 'rolled back on purpose') throw error;
          }),
      );
      await Promise.all(writers);
      writing = false;
      await reader;
      const rest = await readAll(app, cursor, ['MEDIA_REPROCESS_REQUESTED']);
      seen.push(...rest.events.map((e) => Number(e.id)));
      const committed = (
        await service.db.select({ id: domainEvents.id }).from(domainEvents).where(sql`${domainEvents.name} = 'media.reprocess_requested' and ${domainEvents.schoolId} = ${school.id}`)
      ).map((r) => r.id);
      expect(committed).toHaveLength(10 * 3); // 12 writers, 2 rolled back
      expect([...seen].sort((a, b) => a - b)).toEqual([...committed].sort((a, b) => a - b));
    } finally {
      await second?.close();
    }
  });
});
