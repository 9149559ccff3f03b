import { inSchool, inSchoolScope, ownStudentId } from '../auth/tenancy.js';
import type { Reader } from '../content/reader.js';
import type { Context } from './context.js';

/** The reader of the read model (src/content/) a resolver's context stands for: its database, its tenancy and its `own` student. */
export function readerOf(ctx: Context): Reader {
  return {
    db: ctx.db,
    inSchool: (column) => inSchool(ctx, column),
    seesSchool: (schoolId) => inSchoolScope(ctx, schoolId),
    studentId: ownStudentId(ctx),
  };
}
