import { type Context, defineLoader } from '../../graphql/context.js';
import { readerOf } from '../../graphql/reader.js';
import { type EnrollmentScope, releasedAmong } from '../../content/release.js';

const scopeKey = (scope: EnrollmentScope) => `${scope.enrollmentId}|${(scope.activatedAt ?? scope.now).toISOString()}|${scope.now.toISOString()}`;

/**
 * Whether a lesson of the caller's school is released in an enrollment scope, for rows already
 * loaded in a batch: the lessons of a whole batch of scopes are checked in ONE statement
 * (src/content/release.ts' releasedAmong). Read through releasedLessons.
 */
const releasedLesson = defineLoader<{ scope: EnrollmentScope; lessonId: number }, boolean>(
  'content.releasedLesson',
  (ctx, keys) => releasedAmong(readerOf(ctx), keys),
  (k) => `${scopeKey(k.scope)}#${k.lessonId}`,
);

/** The lessons among `rows` (loaded for a module or a product) that the enrollment scope releases, in their order. */
export async function releasedLessons<T extends { id: number }>(ctx: Context, scope: EnrollmentScope, rows: T[]): Promise<T[]> {
  const loader = ctx.loaders.get(releasedLesson);
  const released = await Promise.all(rows.map((row) => loader.load({ scope, lessonId: row.id })));
  return rows.filter((_, i) => released[i]);
}
