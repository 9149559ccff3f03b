import { type Context, defineLoader } from '../../graphql/context.js';
import { readerOf } from '../../graphql/reader.js';
import { type EnrollmentScope, type LessonRelease, releaseAmong } from '../../content/release.js';

const scopeKey = (scope: EnrollmentScope) => `${scope.enrollmentId}|${(scope.activatedAt ?? scope.now).toISOString()}|${scope.now.toISOString()}`;

/**
 * Whether a lesson of the caller's school is released in an enrollment scope, and when it opens, for
 * rows already loaded in a batch: the lessons of a whole batch of scopes are checked in ONE statement
 * (src/content/release.ts' releaseAmong). Read through releasesOf.
 */
const lessonRelease = defineLoader<{ scope: EnrollmentScope; lessonId: number }, LessonRelease>(
  'content.lessonRelease',
  (ctx, keys) => releaseAmong(readerOf(ctx), keys),
  (k) => `${scopeKey(k.scope)}#${k.lessonId}`,
);

/** The release of each of `rows` (lessons loaded for a module or a product) in the enrollment scope, in their order. */
export function releasesOf(ctx: Context, scope: EnrollmentScope, rows: readonly { id: number }[]): Promise<LessonRelease[]> {
  const loader = ctx.loaders.get(lessonRelease);
  return Promise.all(rows.map((row) => loader.load({ scope, lessonId: row.id })));
}
