import { ownStudentId } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import type { ContentScope } from '../../content/scope.js';
import type { LessonRow } from '../courses/course.table.js';
import { releasedLessons } from './content-release.js';

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
 * The lessons a reader sees among lessons loaded for a module: an enrollment's released ones (by
 * src/content/release.ts' releaseRule, in SQL, for the whole batch at once), none for an inactive
 * enrollment. A student outside an enrollment sees none: students read lessons only through their
 * enrollments (staff see every lesson).
 */
export async function visibleLessons(ctx: Context, scope: ContentScope | undefined, rows: LessonRow[]): Promise<LessonRow[]> {
  if (scope?.kind === 'nothing') return [];
  if (scope?.kind === 'enrollment') {
    return (await releasedLessons(ctx, scope, rows)).map((l) => withScope(l, scope));
  }
  return ownStudentId(ctx) !== null ? [] : rows;
}
