import { and } from 'drizzle-orm';
import { inList } from '../../db/columns.js';
import { inSchool, ownRows } from '../../auth/tenancy.js';
import { type Context, defineLoader } from '../../graphql/context.js';
import { visibleEnrollments } from '../enrollments/enrollment.loaders.js';
import { NO_FIGURES, progressOf, type ProgressFigures } from './progress.sql.js';
import { certificates, type CertificateRow } from './progress.table.js';

/**
 * `Enrollment.progress` and `Enrollment.completion`: the figures of every enrollment of the request in
 * one statement (null for an enrollment the caller does not see).
 */
export const enrollmentProgress = defineLoader<number, ProgressFigures | null>('enrollment.progress', async (ctx, ids) => {
  const figures = await progressOf(ctx.db, ids, ctx.now(), visibleEnrollments(ctx));
  return ids.map((id) => figures.get(id) ?? null);
});

/** The figures of one enrollment, batched with the request's others (none required when it is not seen). */
export async function figuresOf(ctx: Context, enrollmentId: number): Promise<ProgressFigures> {
  return (await ctx.loaders.get(enrollmentProgress).load(enrollmentId)) ?? NO_FIGURES;
}

/** The certificate of each enrollment (a student's credential: its own only). */
export const certificateOfEnrollment = defineLoader<number, CertificateRow | null>('enrollment.certificate', async (ctx, ids) => {
  const rows = await ctx.db
    .select()
    .from(certificates)
    .where(and(inList(certificates.enrollmentId, [...ids]), inSchool(ctx, certificates.schoolId), ownRows(ctx, certificates.studentId)));
  const byEnrollment = new Map(rows.map((r) => [r.enrollmentId, r]));
  return ids.map((id) => byEnrollment.get(id) ?? null);
});
