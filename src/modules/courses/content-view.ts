import type { Context } from '../../graphql/context.js';
import type { ContentScope } from '../content/content-scope.js';
import type { LessonRow } from './course.table.js';

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

export function scopeOf(row: object): ContentScope | undefined {
  return (row as Scoped)[SCOPE];
}

export type EnrollmentScope = Extract<ContentScope, { kind: 'enrollment' }>;

/**
 * Whether an enrollment's student sees a lesson: available, `release_at` passed, and `release_after`
 * days passed since the enrollment was activated. The same rule as `lessonCondition` in
 * content/content-scope.ts (SQL, for root lists); this one filters rows already loaded in a batch
 * (nested fields), where each enrollment has its own activation time.
 */
export function isReleased(lesson: Pick<LessonRow, 'available' | 'releaseAt' | 'releaseAfter'>, activatedAt: Date | null, now: Date): boolean {
  if (!lesson.available) return false;
  if (lesson.releaseAt && lesson.releaseAt.getTime() > now.getTime()) return false;
  if (lesson.releaseAfter !== null && lesson.releaseAfter !== undefined) {
    const from = (activatedAt ?? now).getTime();
    if (from + lesson.releaseAfter * 86_400_000 > now.getTime()) return false;
  }
  return true;
}

/**
 * The lessons a reader sees among lessons loaded for a module: an enrollment's released ones, none
 * for an inactive enrollment. A student outside an enrollment sees none: students read lessons only
 * through their enrollments (staff see every lesson).
 */
export function visibleLessons(ctx: Context, scope: ContentScope | undefined, rows: LessonRow[]): LessonRow[] {
  if (scope?.kind === 'nothing') return [];
  if (scope?.kind === 'enrollment') return rows.filter((l) => isReleased(l, scope.activatedAt, scope.now)).map((l) => withScope(l, scope));
  if (ctx.credential?.role === 'student') return [];
  return scope ? rows.map((l) => withScope(l, scope)) : rows;
}
