import { AppError } from '../../graphql/errors.js';
import { type ArgSource, param, pathParam, type Route, rows, type StreamBody, value } from '../../rest/route-table.js';
import { csvStream, exportKinds } from './export.csv.js';
import { readFilters } from './export.rules.js';
import { storedFileStream } from './export.job.js';
import type { ExportKindValue } from './export.table.js';

const CSV = 'text/csv; charset=utf-8';
const attachment = (filename: string) => ({ 'content-type': CSV, 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' });

/** The file as it streams now, from a cursor (export.csv.ts); the filters read again in the operation's context (its loaders answer from cache). */
const streamedFile: StreamBody = {
  type: 'text/csv',
  description: 'RFC 4180 CSV, UTF-8 with a byte-order mark, a header line first; streamed as it is read.',
  async open(result: { kind: ExportKindValue; filename: string }, { ctx, args }) {
    const filters = readFilters(result.kind, args);
    const where = await exportKinds[result.kind].where(ctx, filters);
    return { headers: attachment(result.filename), body: csvStream(ctx, result.kind, where) };
  },
};

/** A finished job's file, read chunk by chunk; before it is done: 409. */
const storedFile: StreamBody = {
  type: 'text/csv',
  description: "The export job's file (RFC 4180 CSV, UTF-8 with a byte-order mark), once done.",
  async open(result: { id: string; kind: ExportKindValue; status: string; createdAt: Date | string }, { ctx }) {
    if (result.status !== 'done') throw new AppError('export_not_ready', `The export is ${result.status}: download it once done (export(id) tells its status)`);
    const filename = `${result.kind}-export-${result.id}.csv`;
    return { headers: attachment(filename), body: storedFileStream(ctx.db, Number(result.id)) };
  },
};

/** Each kind's REST parameters: those of its matching list (enrollments: GET /enrollments; orders: the orders query's). */
const enrollmentFilters: Record<string, ArgSource> = {
  studentId: param('student_id'),
  courseClassId: param('course_class_id'),
  schoolProductId: param('school_product_id'),
  status: param('status'),
};
const filterParams: Record<ExportKindValue, Record<string, ArgSource>> = {
  enrollments: enrollmentFilters,
  progress: enrollmentFilters,
  orders: { studentId: param('student_id'), status: param('status'), createdFrom: param('created_from'), createdTo: param('created_to') },
};

// The job is started over GraphQL (startExport); its REST rows read it and download its file.
export const exportRoutes: Route[] = [
  ...(Object.keys(filterParams) as ExportKindValue[]).map(
    (kind): Route => ({
      method: 'GET',
      path: `/exports/${kind}.csv`,
      field: 'exportFile',
      args: { kind: value(kind), ...filterParams[kind] },
      reply: 'show',
      stream: streamedFile,
      operationId: `export${kind[0].toUpperCase()}${kind.slice(1)}Csv`,
      summary: `Streams the school's ${kind} as CSV, with the filters of the matching list.`,
    }),
  ),
  rows.show('/exports/:id', 'export'),
  { method: 'GET', path: '/exports/:id/download', field: 'export', args: { id: pathParam() }, reply: 'show', stream: storedFile },
];
