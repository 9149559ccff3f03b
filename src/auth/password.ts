import { scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { type Algorithm, hash, parseOptions, verify } from '@node-rs/argon2';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

// `Algorithm` is a const enum the package does not export at run time: name its value here.
const ARGON2ID = 2 as Algorithm;

/** OWASP's password storage cheat sheet: argon2id, 19 MiB, 2 passes, 1 lane (the least it asks). */
export const PASSWORD_POLICY = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** argon2id in PHC form: `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, with a random salt. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_POLICY);
}

export interface PasswordCheck {
  valid: boolean;
  /** The password matched a hash weaker than the policy: store `hashPassword(password)` in its place. */
  rehash: boolean;
}

/**
 * Checks a password against a stored hash: argon2id, or the `scrypt$<salt>$<hash>` form of earlier
 * versions (N=2^14), which verifies still and asks for a rehash. A malformed hash is no match.
 */
export async function verifyPassword(password: string, stored: string): Promise<PasswordCheck> {
  if (stored.startsWith('scrypt$')) {
    const valid = await verifyScrypt(password, stored);
    return { valid, rehash: valid };
  }
  if (!stored.startsWith('$argon2')) return { valid: false, rehash: false };
  try {
    if (!(await verify(stored, password))) return { valid: false, rehash: false };
    return { valid: true, rehash: weakerThanPolicy(stored) };
  } catch {
    return { valid: false, rehash: false };
  }
}

function weakerThanPolicy(stored: string): boolean {
  const used = parseOptions(stored);
  return (
    used.algorithm !== PASSWORD_POLICY.algorithm ||
    used.memoryCost < PASSWORD_POLICY.memoryCost ||
    used.timeCost < PASSWORD_POLICY.timeCost ||
    used.version < 1 // 0x10, before the 0x13 fix
  );
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, salt, digest] = stored.split('$');
  if (!salt || !digest) return false;
  const expected = Buffer.from(digest, 'base64url');
  if (expected.length === 0) return false;
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(expected, actual);
}
