import { randomBytes, scryptSync } from 'node:crypto';
import { hash, parseOptions } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, PASSWORD_POLICY, verifyPassword } from '../src/auth/password.js';
import { users } from '../src/modules/users/user.table.js';
import { type Service, startService } from './support/service.js';

// Passwords are stored at OWASP's current strength (argon2id, 19 MiB, 2 passes); the scrypt hashes
// of earlier versions still verify and ask to be replaced.

/** A hash as earlier versions stored it: scrypt with Node's defaults (N=2^14, r=8, p=1). */
function legacyScrypt(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64url')}$${scryptSync(password, salt, 32).toString('base64url')}`;
}

describe('password hashing', () => {
  it('given a password, then it is stored as argon2id with m=19456, t=2, p=1 and a fresh salt', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(parseOptions(a)).toMatchObject({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  });

  it('given the right and a wrong password, then only the right one verifies, with no rehash due', async () => {
    const stored = await hashPassword('s3cret-pässword');
    expect(await verifyPassword('s3cret-pässword', stored)).toEqual({ valid: true, rehash: false });
    expect(await verifyPassword('s3cret-passsword', stored)).toEqual({ valid: false, rehash: false });
    expect(await verifyPassword('', stored)).toEqual({ valid: false, rehash: false });
  });

  it('given a scrypt hash of an earlier version, then it verifies and asks for a rehash', async () => {
    const stored = legacyScrypt('old-password');
    expect(await verifyPassword('old-password', stored)).toEqual({ valid: true, rehash: true });
    expect((await verifyPassword('other-password', stored)).valid).toBe(false);
  });

  it('given an argon2 hash weaker than the policy, then it verifies and asks for a rehash', async () => {
    const weak = await hash('pw-weak', { ...PASSWORD_POLICY, memoryCost: 4096, timeCost: 1 });
    expect(await verifyPassword('pw-weak', weak)).toEqual({ valid: true, rehash: true });
    const argon2i = await hash('pw-i', { ...PASSWORD_POLICY, algorithm: 1 as typeof PASSWORD_POLICY.algorithm });
    expect(await verifyPassword('pw-i', argon2i)).toEqual({ valid: true, rehash: true });
  });

  it('given a malformed or unknown stored hash, then nothing matches and nothing throws', async () => {
    for (const stored of ['', 'scrypt$', 'scrypt$abc$', '$argon2id$garbage', 'bcrypt$x$y', 'plain-text']) {
      expect(await verifyPassword('anything', stored), stored).toEqual({ valid: false, rehash: false });
    }
  });
});

describe('passwords the service stores', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service?.stop());

  it('given a school made with the wizard, then its admin password is stored as argon2id and verifies', async () => {
    const school = await service.school();
    const [admin] = await service.db.select().from(users).where(eq(users.id, school.adminId));
    expect(admin.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword('secret-password', admin.passwordHash!)).toEqual({ valid: true, rehash: false });
  });
});
