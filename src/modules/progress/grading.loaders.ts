import { and } from 'drizzle-orm';
import { inSchool, ownRows } from '../../auth/tenancy.js';
import { byIdLoader } from '../../graphql/loaders.js';
import { activityAttempts } from './progress.table.js';

/** One attempt, as the lists show them: the school's, and a student's own only (its grades and comments with it). */
export const activityAttemptById = byIdLoader('activityAttempt.byId', activityAttempts, (ctx) =>
  and(inSchool(ctx, activityAttempts.schoolId), ownRows(ctx, activityAttempts.studentId)),
);
