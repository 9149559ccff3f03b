import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { hashPassword, verifyPassword } from '../../auth/password.js';
import { config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { schools } from '../../db/school.table.js';
import { AppError } from '../../errors/app-error.js';
import type { Context } from '../../graphql/context.js';
import { idOrNull } from '../../graphql/ids.js';
import { type UserRow, users } from '../users/user.table.js';

/** A hash of a random password, made once: an unknown e-mail costs the same argon2id check as a known one. */
let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hashPassword(randomBytes(18).toString('base64url')));

/**
 * The school a sign-in (or a reset request) is for: the one it names, else `X-School-Id`, else the
 * host (`<subdomain>.<SCHOOLS_BASE_DOMAIN>`). A named id that is
 * no school is kept: it then matches no person, as an unknown e-mail does. Null when none is named.
 */
export async function schoolOfRequest(ctx: Context, named: string | null | undefined): Promise<number | null> {
  const given = named ?? ctx.client?.schoolHeader;
  if (given !== undefined && given !== null && String(given).trim() !== '') {
    const id = idOrNull(String(given).trim());
    if (id === null) throw new AppError('bad_request', 'schoolId must be a school id', ['schoolId']);
    return id;
  }
  const host = ctx.client?.host?.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (!host) return null;
  const base = `.${config.schoolsBaseDomain}`;
  if (!host.endsWith(base)) return null;
  const subdomain = host.slice(0, -base.length);
  const [found] = await ctx.db.select({ id: schools.id }).from(schools).where(eq(sql`lower(${schools.subdomain})`, subdomain));
  return found?.id ?? null;
}

export const noSchoolNamed = () =>
  new AppError('bad_request', "Name the school: its schoolId (REST: school_id), the X-School-Id header, or the school's host", ['schoolId']);

/** A person of the school by e-mail (stored lower-cased). */
export async function personByEmail(db: Queryable, schoolId: number, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(and(eq(users.schoolId, schoolId), eq(users.email, email)));
  return row;
}


/**
 * The person whose e-mail and password these are, or null. Always one argon2id verification, against
 * the person's hash or a dummy one, so that an unknown e-mail and a wrong password take the same time.
 */
export async function checkPassword(db: Queryable, schoolId: number, email: string, password: string): Promise<{ user: UserRow; rehash: boolean } | null> {
  const user = email ? await personByEmail(db, schoolId, email) : undefined;
  const stored = user?.passwordHash ?? (await dummyHash());
  const check = await verifyPassword(password, stored);
  return user?.passwordHash && check.valid ? { user, rehash: check.rehash } : null;
}
