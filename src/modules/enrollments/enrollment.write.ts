import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { Checks } from '../../graphql/validation.js';
import { emitEvents } from '../events/events.js';
import type { EnrollmentInput } from './enrollment.input.js';
import { checkEnrollments } from './enrollment.rules.js';
import { enrollmentCourseClasses, enrollments, type EnrollmentRow } from './enrollment.table.js';

/** The most enrollments one batch may create (the request body limit bounds it too). */
export const MAX_BATCH = 1000;

/**
 * Inserts checked enrollments (one statement for all), links their classes and emits their events.
 * `place` names where the i-th input's problems go (the batch: `enrollments.<i>`; onboarding: `students.<i>.enrollments.<j>`).
 */
export async function createEnrollmentRows(tx: Queryable, ctx: Context, schoolId: number, inputs: EnrollmentInput[], place: (root: Checks, i: number) => Checks) {
  const root = new Checks();
  const checked = await checkEnrollments(
    tx,
    ctx,
    schoolId,
    inputs.map((input, i) => ({ input, checks: place(root, i) })),
  );
  root.throwIfAny();
  const inserted = await tx
    .insert(enrollments)
    .values(checked.map((c) => ({ ...c.values, schoolId }) as typeof enrollments.$inferInsert))
    .returning();
  // Identity values follow the VALUES order: sorting by id restores the input order.
  const rows = inserted.sort((a, b) => a.id - b.id);
  const links = rows.flatMap((row, i) => (checked[i].courseClassIds ?? []).map((courseClassId) => ({ schoolId, enrollmentId: row.id, courseClassId })));
  if (links.length) await tx.insert(enrollmentCourseClasses).values(links);
  // An enrollment created with created_at is an import: its callbacks (events) are skipped.
  const live = rows.map((row, i) => ({ row, i })).filter(({ i }) => !inputs[i].createdAt);
  await emitEvents(
    tx,
    live.flatMap(({ row, i }) =>
      (checked[i].activated ? (['enrollment.created', 'enrollment.activated'] as const) : (['enrollment.created'] as const)).map((name) => ({
        schoolId,
        name,
        subjectType: 'Enrollment',
        subjectId: row.id,
        payload: eventPayload(row),
      })),
    ),
  );
  return rows;
}

export const eventPayload = (row: EnrollmentRow) => ({
  studentId: row.studentId,
  registrationId: row.registrationId,
  schoolProductId: row.schoolProductId,
  status: row.status,
});

