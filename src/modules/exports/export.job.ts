import { Readable } from 'node:stream';
import { and, eq, lt, sql } from 'drizzle-orm';
import { signedSchoolScope } from '../../auth/tenancy.js';
import { readInBatches } from '../../db/batches.js';
import type { Database, Db } from '../../db/client.js';
import { type PollingJob, pollingJob, type PollingOptions } from '../../db/polling-job.js';
import { rowsOf } from '../../db/rows.js';
import { AppError } from '../../errors/app-error.js';
import { type Context, withLoaders } from '../../graphql/context.js';
import { csvText, exportKinds, filterValues } from './export.csv.js';
import { exportChunks, exportFiles, type ExportRow } from './export.table.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

/** A chunk of the stored file: about a megabyte, one statement (the embedded database's WASM heap holds a few at most). */
export const CHUNK_BYTES = 1024 * 1024;
/** Finished files are deleted this long after they finish (the school downloads them meanwhile). */
export const EXPORT_RETENTION_MS = 7 * DAY;

export interface ExportWorkerOptions extends PollingOptions {
  /** How long a claim holds without news from its worker before another instance starts the file over (5 min; renewed at every chunk). */
  leaseMs?: number;
  /** The size of a stored chunk (CHUNK_BYTES; tests make it small to write many). */
  chunkBytes?: number;
  now?: () => Date;
}

/**
 * The job's context: the export's school, as the school's own staff credential would read it (no
 * person's scope: every row of the school), with loaders of its own. The filters are read again
 * through the list's own code, so a row named by them that has since gone fails the export.
 */
function schoolContext(db: Db, schoolId: number, now: () => Date, log: (error: unknown) => void): Context {
  return withLoaders({ db, locale: 'en', credential: null, scope: signedSchoolScope(schoolId), schoolStatus: null, now, log });
}

/**
 * The export worker, run in every instance: each round claims the oldest queued export (or one whose
 * worker's lease ran out) with `FOR UPDATE SKIP LOCKED`, writes its file in chunks as the rows come
 * from the cursor, and marks it done with its row count; it also deletes files past their retention.
 * Tests run it with `poll: false` and call `runOnce`.
 */
export function startExportWorker(database: Pick<Database, 'db'>, options: ExportWorkerOptions = {}): PollingJob {
  const db = database.db;
  const leaseMs = options.leaseMs ?? 5 * MINUTE;
  const now = options.now ?? (() => new Date());
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const lease = () => sql`now() + make_interval(secs => ${leaseMs / 1000})`;

  async function claim(): Promise<ExportRow | null> {
    const result = await db.execute(sql`
      update ${exportFiles} set status = 'running', lease_until = ${lease()}
      where ${exportFiles.id} = (
        select e.id from ${exportFiles} e
        where e.status = 'queued' or (e.status = 'running' and e.lease_until < now())
        order by e.id limit 1
        for update skip locked)
      returning id, school_id, kind, filters`);
    const [row] = rowsOf<{ id: number; school_id: number; kind: ExportRow['kind']; filters: ExportRow['filters'] | string }>(result);
    if (!row) return null;
    const filters = typeof row.filters === 'string' ? JSON.parse(row.filters) : row.filters;
    return { id: Number(row.id), schoolId: Number(row.school_id), kind: row.kind, filters } as ExportRow;
  }

  /** Writes the file chunk by chunk; each chunk renews the lease. */
  async function write(job: ExportRow): Promise<number> {
    // Started over after a lost worker: its chunks go first.
    await db.delete(exportChunks).where(eq(exportChunks.exportId, job.id));
    const ctx = schoolContext(db, job.schoolId, now, (error) => options.onError?.(error));
    const where = await exportKinds[job.kind].where(ctx, filterValues(job.filters));
    let rows = 0;
    let position = 0;
    let pending = Buffer.alloc(0);
    const store = async (data: Buffer) => {
      position += 1;
      await db.insert(exportChunks).values({ schoolId: job.schoolId, exportId: job.id, position, data });
      await db.update(exportFiles).set({ leaseUntil: lease() }).where(eq(exportFiles.id, job.id));
    };
    // Chunks of exactly chunkBytes (a character may straddle two: the download joins the bytes), the rest last.
    for await (const text of csvText(ctx, job.kind, where, (n) => (rows += n))) {
      pending = Buffer.concat([pending, Buffer.from(text, 'utf8')]);
      while (pending.length >= chunkBytes) {
        await store(pending.subarray(0, chunkBytes));
        pending = pending.subarray(chunkBytes);
      }
    }
    if (pending.length) await store(pending);
    return rows;
  }

  async function run(job: ExportRow) {
    try {
      const rows = await write(job);
      await db.update(exportFiles).set({ status: 'done', rowCount: rows, finishedAt: now(), leaseUntil: null }).where(eq(exportFiles.id, job.id));
    } catch (error) {
      // A refusal of the filters (a named row gone: 404) is the export's failure; anything else also goes to onError.
      if (!(error instanceof AppError)) options.onError?.(error);
      await db.delete(exportChunks).where(eq(exportChunks.exportId, job.id));
      const failure = error instanceof AppError ? error.message : 'The export could not be written';
      await db.update(exportFiles).set({ status: 'failed', failure, finishedAt: now(), leaseUntil: null }).where(eq(exportFiles.id, job.id));
    }
  }

  async function runOnce(): Promise<number> {
    // Files past their retention go (their chunks with them: the foreign key cascades).
    await db.delete(exportFiles).where(and(lt(exportFiles.finishedAt, new Date(now().getTime() - EXPORT_RETENTION_MS))));
    const job = await claim();
    if (!job) return 0;
    await run(job);
    return 1;
  }

  return pollingJob(runOnce, { batchSize: 1, intervalMs: options.pollIntervalMs ?? 5 * SECOND, poll: options.poll, onError: options.onError });
}

/** A finished export's file, read one chunk at a time (db/batches.ts: a cursor of one row per fetch, or keyset by position). */
export function storedFileStream(db: Db, exportId: number): Readable {
  async function* chunks() {
    const statement = (page: { after: number; limit: number } | null) =>
      sql`select ${exportChunks.position} as position, ${exportChunks.data} as data from ${exportChunks}
          where ${exportChunks.exportId} = ${exportId}${page ? sql` and ${exportChunks.position} > ${page.after}` : sql``}
          order by ${exportChunks.position}${page ? sql` limit ${page.limit}` : sql``}`;
    for await (const rows of readInBatches<{ position: number; data: Uint8Array }>(db, statement, 'position', 1)) {
      for (const row of rows) yield Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 });
}
