import { AppError } from '../../graphql/errors.js';
import { snake } from '../../rest/names.js';
import { type ExportFilterValues, exportFilename, filterProblems, filterValues } from './export.csv.js';
import type { ExportKindValue } from './export.table.js';

/**
 * The filters of a read (the streamed file): a filter the kind's list does not take, or a value it
 * cannot hold, is a malformed request (400, as a list's filter), naming the first such field.
 */
export function readFilters(kind: ExportKindValue, given: object): ExportFilterValues {
  const filters = filterValues(given as Record<string, unknown>);
  const [problem] = filterProblems(kind, filters);
  if (problem) throw new AppError('bad_request', `${problem.field} ${problem.message}`, [problem.field]);
  return filters;
}

/** The streamed file's path, its filters as the REST parameters of the matching list. */
export function streamPathOf(kind: ExportKindValue, filters: ExportFilterValues): string {
  const query = new URLSearchParams(Object.entries(filters).map(([k, v]) => [snake(k), v instanceof Date ? v.toISOString() : String(v)])).toString();
  return `/exports/${kind}.csv${query ? `?${query}` : ''}`;
}

export const exportFileOf = (kind: ExportKindValue, schoolId: number, filters: ExportFilterValues, now: Date) => ({
  kind,
  filename: exportFilename(kind, schoolId, now),
  downloadPath: streamPathOf(kind, filters),
});

/** Where a finished job's file downloads. */
export const downloadPathOf = (id: number) => `/exports/${id}/download`;
