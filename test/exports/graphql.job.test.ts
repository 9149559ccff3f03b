import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { exportChunks } from '../../src/modules/exports/export.table.js';
import { schoolProducts } from '../../src/modules/school-products/school-product.table.js';
import { startExportWorker } from '../../src/modules/exports/index.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';
import { csvRecords, exportFixtures } from '../support/exports.fixtures.js';

// startExport: an export job for a large school, written by the background job (off in tests: runOnce),
// read with export(id) and downloaded from GET /exports/:id/download.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Job School', 'Other Job School', (w) => ({ service, school, other } = w));
const fx = exportFixtures(() => service);

const START = `mutation ($kind: ExportKind!, $filters: ExportFiltersInput) {
  startExport(kind: $kind, filters: $filters) { export { id kind status filters rowCount downloadPath finishedAt } errors { field code message } }
}`;
const READ = 'query ($id: ID!) { export(id: $id) { id kind status filters rowCount failure downloadPath createdAt finishedAt } }';

describe('startExport and the export job', () => {
  it('queues a job the worker writes in chunks; export(id) then tells its row count and download path, and the file parses back', async () => {
    const product = await fx.product(school.id);
    const names = ['Souza, Maria', 'Quote "Q" Person', 'Multi\nLine', 'Çédille Ãngela'];
    const written = [];
    for (const name of names) {
      const student = await fx.student(school.id, name);
      written.push({ student, enrollment: await fx.enroll(school.id, student.id, product.id) });
    }
    const foreign = await fx.student(other.id, 'Never In This File');
    await fx.enroll(other.id, foreign.id, (await fx.product(other.id)).id);

    const started = await school.admin.graphql(START, { kind: 'enrollments', filters: { schoolProductId: String(product.id), status: 'active' } });
    expect(started.errors).toBeUndefined();
    const job = started.data.startExport.export;
    expect(job).toMatchObject({ kind: 'enrollments', status: 'queued', rowCount: null, downloadPath: null, finishedAt: null, filters: { schoolProductId: String(product.id), status: 'active' } });

    // Not written yet: 409.
    const early = await school.admin.get(`/exports/${job.id}/download`);
    expect(early.status, early.text).toBe(409);
    expect(early.body.details.base[0].error).toBe('export_not_ready');

    // Small chunks: the file is written in many pieces and read back whole.
    const worker = startExportWorker(service.database, { poll: false, chunkBytes: 100 });
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    await worker.stop();
    expect((await service.db.select().from(exportChunks).where(eq(exportChunks.exportId, Number(job.id)))).length).toBeGreaterThan(5);

    const read = (await school.admin.graphql(READ, { id: job.id })).data.export;
    expect(read).toMatchObject({ status: 'done', rowCount: 4, downloadPath: `/exports/${job.id}/download`, failure: null });
    expect(read.finishedAt).toBeTruthy();

    const file = await school.admin.get(read.downloadPath);
    expect(file.status, file.text).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="enrollments-export-${job.id}.csv"`);
    const records = csvRecords(file);
    expect(records.map((r) => [r.id, r.student_name, r.student_email])).toEqual(written.map(({ student, enrollment }) => [String(enrollment.id), student.fullName, student.email]));

    // The REST show of the job.
    const shown = await school.admin.get(`/exports/${job.id}`);
    expect(shown.body).toMatchObject({ id: Number(job.id), status: 'done', row_count: 4 });
  });

  it('another school’s admin finds no such export (404); a student may not start, read or download one (403)', async () => {
    const started = await school.admin.graphql(START, { kind: 'orders' });
    const id = started.data.startExport.export.id;
    const foreign = await other.admin.graphql(READ, { id });
    expect(foreign.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await other.admin.get(`/exports/${id}/download`)).status).toBe(404);
    const student = await service.token('student', school.id, (await fx.student(school.id, 'Curious Student')).id);
    expect((await student.graphql(START, { kind: 'orders' })).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await student.graphql(READ, { id })).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await student.get(`/exports/${id}/download`)).status).toBe(403);
    const collaborator = await service.token('collaborator', school.id);
    expect((await collaborator.graphql(START, { kind: 'enrollments' })).errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('names every bad filter at once (422); a named row of another school is a 404', async () => {
    const bad = await school.admin.graphql(START, { kind: 'orders', filters: { courseClassId: '1', status: 'active', createdFrom: '2026-01-01T00:00:00Z' } });
    expect(bad.data.startExport.export).toBeNull();
    expect(bad.data.startExport.errors.map((e: { field: string[]; code: string }) => [e.field.join('.'), e.code])).toEqual([
      ['filters.courseClassId', 'invalid'],
      ['filters.status', 'inclusion'],
    ]);
    const wrong = await school.admin.graphql(START, { kind: 'enrollments', filters: { status: 'sleeping', createdTo: '2026-01-01T00:00:00Z' } });
    expect(wrong.data.startExport.errors.map((e: { field: string[] }) => e.field.join('.')).sort()).toEqual(['filters.createdTo', 'filters.status']);
    const foreignProduct = await fx.product(other.id);
    const missing = await school.admin.graphql(START, { kind: 'progress', filters: { schoolProductId: String(foreignProduct.id) } });
    expect(missing.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('fails an export whose filter names a row gone since it started, with why', async () => {
    const student = await fx.student(school.id, 'Leaving Student');
    const started = await school.admin.graphql(START, { kind: 'orders', filters: { studentId: String(student.id) } });
    const id = started.data.startExport.export.id;
    // The orders list filters by the id as given: the job still writes (an empty file).
    const worker = startExportWorker(service.database, { poll: false });
    while ((await worker.runOnce()) > 0);
    await worker.stop();
    const done = (await school.admin.graphql(READ, { id })).data.export;
    expect(done).toMatchObject({ status: 'done', rowCount: 0 });
    expect(csvRecords(await school.admin.get(done.downloadPath))).toEqual([]);

    const product = await fx.product(school.id);
    const byProduct = (await school.admin.graphql(START, { kind: 'enrollments', filters: { schoolProductId: String(product.id) } })).data.startExport.export.id;
    await service.db.delete(schoolProducts).where(eq(schoolProducts.id, product.id));
    const again = startExportWorker(service.database, { poll: false });
    while ((await again.runOnce()) > 0);
    await again.stop();
    const failed = (await school.admin.graphql(READ, { id: byProduct })).data.export;
    expect(failed).toMatchObject({ status: 'failed', downloadPath: null });
    expect(failed.failure).toMatch(/SchoolProduct/);
  });
});
