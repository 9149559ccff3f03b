import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseSecretsKey,
  decryptSecret,
  DEVELOPMENT_KEY_WARNING,
  encryptSecret,
  secretHint,
  signToken,
  verifyToken,
} from '../src/auth/secrets.js';
import { ConfigurationError } from '../src/config.js';
import { schools } from '../src/db/school.table.js';
import { type Service, startService } from './support/service.js';

describe('secrets', () => {
  it('encrypts with a fresh IV each time and decrypts back', () => {
    const a = encryptSecret('sk_live_123456');
    const b = encryptSecret('sk_live_123456');
    expect(a).not.toBe(b);
    expect(a).not.toContain('sk_live');
    expect(decryptSecret(a)).toBe('sk_live_123456');
  });

  it('refuses a tampered ciphertext', () => {
    const stored = encryptSecret('secret');
    const parts = stored.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => decryptSecret(parts.join('.'))).toThrow();
  });

  it('shows only a hint of a secret', () => {
    expect(secretHint('abcdefgh1234')).toBe('****1234');
    expect(secretHint('abc')).toBe('****');
  });

  it('given a value shorter than 12 characters, then the hint shows none of it', () => {
    expect(secretHint('')).toBe('****');
    expect(secretHint('12345')).toBe('****');
    expect(secretHint('abcdefgh123')).toBe('****');
    expect(secretHint('abcdefgh1234567')).toBe('****4567');
  });

  it('signs tokens that verify until they expire and not after, nor when tampered', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const token = signToken({ mediaId: 3, enrollmentId: 9 }, new Date(now.getTime() + 60_000));
    expect(verifyToken(token, now)).toMatchObject({ mediaId: 3, enrollmentId: 9 });
    expect(verifyToken(token, new Date(now.getTime() + 61_000))).toBeNull();
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ mediaId: 4, enrollmentId: 9, exp: 9e9 })).toString('base64url');
    expect(verifyToken(`${forged}.${signature}`, now)).toBeNull();
    expect(verifyToken(`${payload}.x${signature.slice(1)}`, now)).toBeNull();
    expect(verifyToken('garbage', now)).toBeNull();
  });
});

describe('the secrets key at start-up', () => {
  const key = randomBytes(32).toString('base64');

  it('given SECRETS_KEY, then it is used, in production and on PostgreSQL alike, with no warning', () => {
    const chosen = chooseSecretsKey({ SECRETS_KEY: key, NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x' });
    expect(chosen.key.toString('base64')).toBe(key);
    expect(chosen.warning).toBeUndefined();
  });

  it('given NODE_ENV=production and no SECRETS_KEY, then start-up stops with an error naming it', () => {
    for (const env of [{ NODE_ENV: 'production' }, { NODE_ENV: 'production', SECRETS_KEY: '  ' }]) {
      expect(() => chooseSecretsKey(env)).toThrow(ConfigurationError);
      expect(() => chooseSecretsKey(env)).toThrow(/SECRETS_KEY is required when NODE_ENV=production/);
    }
  });

  it('given PostgreSQL outside the tests and no SECRETS_KEY, then start-up stops too', () => {
    expect(() => chooseSecretsKey({ DATABASE_URL: 'postgres://db/x' })).toThrow(/SECRETS_KEY is required on PostgreSQL/);
    expect(() => chooseSecretsKey({ DATABASE_URL: 'postgres://db/x', NODE_ENV: 'development' })).toThrow(ConfigurationError);
  });

  it('given a key that is not 32 bytes of base64, then start-up stops with an error naming it', () => {
    expect(() => chooseSecretsKey({ SECRETS_KEY: randomBytes(16).toString('base64') })).toThrow(/SECRETS_KEY must be 32 bytes/);
  });

  it('given the embedded database or the tests and no key, then the development key is used with a warning', () => {
    for (const env of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test', DATABASE_URL: 'postgres://db/x' }]) {
      const chosen = chooseSecretsKey(env);
      expect(chosen.key).toHaveLength(32);
      expect(chosen.warning).toBe(DEVELOPMENT_KEY_WARNING);
    }
  });

  it('given the service started in production with no key, then it exits with one line naming SECRETS_KEY and no stack', async () => {
    const env = { ...process.env, NODE_ENV: 'production', SECRETS_KEY: '', DATABASE_URL: '' };
    const run = promisify(execFile)('node_modules/.bin/tsx', ['src/main.ts'], { env, timeout: 60_000 });
    const failure = await run.then(
      () => null,
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(failure?.code).toBe(1);
    const lines = failure!.stderr.trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^Configuration error: SECRETS_KEY is required when NODE_ENV=production/)]);
    expect(failure!.stdout).not.toMatch(/listening/i);
  });
});

describe("schools' tokens at rest", () => {
  let service: Service;
  // The schema the version before 0007 left: crm_token and video_access_token in plaintext.
  beforeAll(async () => {
    service = await startService({ migratedThrough: '0006_webhooks' });
  });
  afterAll(() => service?.stop());

  const rowOf = async (subdomain: string) => (await service.db.select().from(schools).where(eq(schools.subdomain, subdomain)))[0];

  it('given tokens an older version stored in plaintext, when start-up migrates, then they are encrypted in place and the API shows their hints', async () => {
    const crm = `crm-${randomBytes(8).toString('hex')}`;
    const video = 'vat-short';
    await service.db.execute(sql`insert into schools (name, subdomain, status, crm_token, video_access_token) values ('Old', 'old-tokens', 'active', ${crm}, ${video})`);
    await service.db.execute(sql`insert into schools (name, subdomain) values ('None', 'no-tokens')`);
    const [before] = await service.db.select({ updatedAt: schools.updatedAt }).from(schools).where(eq(schools.subdomain, 'old-tokens'));

    await service.database.migrate();
    const row = await rowOf('old-tokens');
    // Only the storage changed, not the school.
    expect(row.updatedAt).toEqual(before.updatedAt);
    expect(row.crmTokenCiphertext).toMatch(/^v1\./);
    expect(row.crmTokenCiphertext).not.toContain(crm);
    expect(decryptSecret(row.crmTokenCiphertext!)).toBe(crm);
    expect(row.crmTokenHint).toBe(`****${crm.slice(-4)}`);
    expect(decryptSecret(row.videoAccessTokenCiphertext!)).toBe(video);
    expect(row.videoAccessTokenHint).toBe('****');
    expect(await rowOf('no-tokens')).toMatchObject({ crmTokenCiphertext: null, crmTokenHint: null, videoAccessTokenCiphertext: null, videoAccessTokenHint: null });

    // Start-up runs it every time: a second run changes nothing (no re-encryption, no new IV).
    await service.database.migrate();
    expect(await rowOf('old-tokens')).toEqual(row);

    // The API reads the hints; sending them back keeps the tokens, a new value replaces one.
    const shown = await service.platform.get(`/schools/${row.id}`);
    expect(shown.body).toMatchObject({ crm_token: row.crmTokenHint, video_access_token: '****' });
    const kept = await service.platform.put(`/school/${row.id}`, { school: { crm_token: row.crmTokenHint, video_access_token: '****' } });
    expect(kept.status, kept.text).toBe(200);
    expect(await rowOf('old-tokens')).toMatchObject({ crmTokenCiphertext: row.crmTokenCiphertext, videoAccessTokenCiphertext: row.videoAccessTokenCiphertext });
    const replaced = await service.platform.put(`/school/${row.id}`, { school: { crm_token: 'crm-replaced-0042' } });
    expect(replaced.body.crm_token).toBe('****0042');
    expect(decryptSecret((await rowOf('old-tokens')).crmTokenCiphertext!)).toBe('crm-replaced-0042');
  });
});
