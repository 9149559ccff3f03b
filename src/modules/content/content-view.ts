import { ownStudentId } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import type { ContentScope } from '../../content/scope.js';
import type { LessonRow } from '../courses/course.table.js';
import type { EnrollmentScope, LessonRelease } from '../../content/release.js';
import { releasesOf } from './content-release.js';

/**
 * The scope a row was read in travels with it, so that the fields under it keep the scope's rules:
 * `enrollment(...) { courses { modules { lessons } } }` shows released lessons only, as
 * `/enrollments/:id/lessons` does. Rows are copied before they are marked, because loaders cache
 * and share the row objects within a request.
 */
const SCOPE = Symbol('contentScope');
type Scoped = { [SCOPE]?: ContentScope };

export function withScope<T extends object>(row: T, scope: ContentScope | undefined): T {
  return scope && scope.kind !== 'school' ? { ...row, [SCOPE]: scope } : row;
}

/**
 * The mark of a module or a lesson. Below them only an enrollment's scope (released lessons, available
 * extra contents) or one that shows nothing changes what is read: a product's scope reads as the
 * school's there, so their rows are not copied for it (a read of a thousand lessons copied each one).
 */
export function withModuleScope<T extends object>(row: T, scope: ContentScope | undefined): T {
  return scope?.kind === 'enrollment' || scope?.kind === 'nothing' ? withScope(row, scope) : row;
}

export function scopeOf(row: object): ContentScope | undefined {
  return (row as Scoped)[SCOPE];
}

/**
 * The lessons a reader sees among lessons loaded for a module: an enrollment's available ones, each
 * marked released or locked (withLocks), none for an inactive enrollment. A student outside an
 * enrollment sees none: students read lessons only through their enrollments (staff see every lesson).
 */
export async function visibleLessons(ctx: Context, scope: ContentScope | undefined, rows: LessonRow[]): Promise<LessonRow[]> {
  if (scope?.kind === 'nothing') return [];
  if (scope?.kind === 'enrollment') return withLocks(ctx, scope, rows.filter((l) => l.available));
  return ownStudentId(ctx) !== null ? [] : rows;
}

/** A lesson's release in the enrollment it was read through, and whether its content is withheld from the reader. */
type Lock = LessonRelease & { withheld: boolean };
const LOCK = Symbol('lessonRelease');
type Locked = { [LOCK]?: Lock };

/**
 * Lessons read through an enrollment, each marked with its release there (src/content/release.ts'
 * releaseRule and opensAt, ONE statement per batch): a lesson not released yet is listed as locked,
 * with when it opens, and to a student its content stays unreadable until then: `description` and
 * `media` read null, `activities` and `extraContents` empty (as a field rule hides a field from a role).
 * Staff reading the enrollment see the same marks and the content.
 */
export async function withLocks(ctx: Context, scope: EnrollmentScope, rows: LessonRow[]): Promise<LessonRow[]> {
  const releases = await releasesOf(ctx, scope, rows);
  const student = ownStudentId(ctx) !== null;
  return rows.map((row, i) => {
    const withheld = student && !releases[i].released;
    const shown = withheld ? { ...row, description: null, mediaId: null } : row;
    return Object.assign(withScope(shown, scope), { [LOCK]: { ...releases[i], withheld } satisfies Lock });
  });
}

/** The release of a lesson read through an enrollment (undefined when read outside one). */
export function releaseOf(row: object): LessonRelease | undefined {
  return (row as Locked)[LOCK];
}

/** Whether a lesson row's content is withheld from its reader (a student's locked lesson): its content fields read null or empty. */
export function contentWithheld(row: object): boolean {
  return (row as Locked)[LOCK]?.withheld ?? false;
}
