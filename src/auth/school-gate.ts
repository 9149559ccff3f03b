import type { SchoolStatus } from '../db/school.table.js';

// A school's states live with the schools table (db/school.table.ts); auth/school-lifecycle.ts moves a school between them.

/**
 * The school gate: what a school's status lets its own credentials do (the platform is never
 * gated; auth/guard.ts applies it, the README renders it from here and the role matrix):
 * - `full`: everything their roles allow;
 * - `read`: a blocked or suspended school keeps its data visible while it settles: queries, the
 *   mutations that write nothing (`gate: 'reads'` in the role matrix: a SCORM launch, which a GET
 *   route runs), and, sent alone, the lifecycle events the school's admin may fire from there
 *   (`gate: 'lifecycle'`: `cancel`, since a school must always be able to cancel itself); 403 on
 *   any other write;
 * - `none`: nothing.
 */
export type SchoolAccess = 'full' | 'read' | 'none';
export const schoolStatusAccess: Record<SchoolStatus, SchoolAccess> = {
  pending: 'full',
  trial: 'full',
  active: 'full',
  overdue: 'full',
  blocked: 'read',
  suspended: 'read',
  canceled: 'none',
};
