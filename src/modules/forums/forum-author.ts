import 'reflect-metadata';
import { and, eq, inArray } from 'drizzle-orm';
import { Field, ID, ObjectType } from 'type-graphql';
import { STAFF } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { byIdLoader } from '../../graphql/loaders.js';
import { idOrNull } from '../../graphql/ids.js';
import { Checks } from '../../graphql/validation.js';
import { users } from '../users/user.table.js';
import { UserTypeEnum } from '../users/user.type.js';

/**
 * Posts (forum questions and answers, collaborative comments) are written by any person of the
 * school. Their author is resolved from ONE loader of users of the caller's school whatever their
 * type, so a list of posts by students, collaborators and admins costs one statement for all their
 * authors.
 */
export const schoolUserById = byIdLoader('forums.schoolUserById', users);

/**
 * The public face of a post's author. A union of Student | Collaborator | Admin was the first
 * choice, but the REST layer's renderer (rest/compile.ts `rendererFor`) walks every object field
 * and fails at start-up on a union type, so the author is a small object type naming the person's
 * type. It also shows no e-mail, phone or document: posts are read by every student of the school.
 */
export function authorType(name: string, description: string) {
  @ObjectType(name, { description })
  class Author {
    @Field(() => ID) id!: number;
    @Field(() => UserTypeEnum, { description: 'Student, Collaborator or Admin.' }) type!: string;
    @Field(() => String) fullName!: string;
  }
  return Author;
}

export const ForumAuthor = authorType('ForumAuthor', 'The person who wrote a forum question or answer (a student, collaborator or admin of the school).');

/** Users who answer for the school: their answers count as "answered by admin". */
export const STAFF_USER_TYPES = ['Collaborator', 'Admin'] as const;

export const isStaff = (ctx: Context) => !!ctx.credential && STAFF.includes(ctx.credential.role);

/**
 * The author of a new post: the credential's own user unless a staff credential names another user
 * of the school (`userId`). A student credential may name only itself (`forbidden` otherwise: its
 * `userId` is never silently replaced). Null when the credential is bound to no user and names none.
 */
export async function authorOf(
  tx: Queryable,
  ctx: Context,
  checks: Checks,
  given: string | number | null | undefined,
  schoolId: number,
  field = 'userId',
): Promise<number | null> {
  const own = ctx.credential?.userId ?? null;
  if (given === undefined || given === null) return own;
  if (!isStaff(ctx)) {
    if (idOrNull(given) !== own) checks.add(field, 'forbidden', "can only be the credential's own user");
    return own;
  }
  const id = idOrNull(given);
  const [found] = id === null ? [] : await tx.select({ id: users.id }).from(users).where(and(eq(users.id, id), eq(users.schoolId, schoolId)));
  if (!found) {
    checks.add(field, 'not_found', 'must be a user of this school');
    return null;
  }
  return found.id;
}

/** Staff of a school (collaborators and admins), as a condition on `users`. */
export const staffOfSchool = (schoolId: number) => and(eq(users.schoolId, schoolId), inArray(users.type, [...STAFF_USER_TYPES]));

/**
 * The columns of a post (a forum answer, a collaborative comment): its text, required on create and
 * never cleared, and its author (`authorOf`; on update only when named, else it stays). With
 * `authorRequired` the input must name the author too (a comment's userId).
 */
export async function postColumns(
  tx: Queryable,
  input: { text?: string | null; userId?: string | null },
  { ctx, schoolId, current }: { ctx: Context; schoolId: number; current?: { userId: number | null } },
  authorRequired = false,
) {
  const checks = new Checks().present(!current, 'text', input.text);
  if (authorRequired) checks.present(!current, 'userId', input.userId);
  const named = input.userId !== undefined && input.userId !== null;
  const userId = current && !named ? current.userId : await authorOf(tx, ctx, checks, input.userId, schoolId);
  checks.throwIfAny();
  const values: { text?: string; userId?: number | null } = {};
  if (input.text !== undefined) values.text = input.text!;
  if (userId !== current?.userId) values.userId = userId;
  return values;
}
