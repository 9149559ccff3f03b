import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { config, ConfigurationError } from '../config.js';

// The key and the cipher of the secrets kept in columns, here below auth/ so a data migration
// (db/data-migrations.ts) can encrypt; auth/secrets.ts adds the write-only inputs and signed tokens.

/** What the environment says about the key (config.secrets): where it runs and what it was given. */
export interface SecretsEnv {
  SECRETS_KEY?: string;
  NODE_ENV?: string;
  DATABASE_URL?: string;
}

export const DEVELOPMENT_KEY_WARNING =
  'Warning: SECRETS_KEY is not set; using the public development key (embedded database and tests only)';

/**
 * One key for the secrets the service keeps (gateway keys, host access tokens, integration
 * settings, schools' CRM and video access tokens) and the tokens it signs (SCORM launches). Every
 * instance behind a load balancer must share it: SECRETS_KEY, 32 bytes, base64. Without it the
 * public development key is used, but only where nothing real is kept: the embedded database or
 * the tests. In production, or on PostgreSQL outside the tests, a missing key stops start-up.
 */
export function chooseSecretsKey(env: SecretsEnv): { key: Buffer; warning?: string } {
  const configured = env.SECRETS_KEY?.trim();
  if (configured) {
    const key = Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new ConfigurationError('SECRETS_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)');
    return { key };
  }
  if (env.NODE_ENV === 'production') {
    throw new ConfigurationError('SECRETS_KEY is required when NODE_ENV=production (32 bytes, base64: openssl rand -base64 32)');
  }
  if (env.DATABASE_URL && env.NODE_ENV !== 'test') {
    throw new ConfigurationError('SECRETS_KEY is required on PostgreSQL (DATABASE_URL is set); the development key serves the embedded database only');
  }
  return { key: createHash('sha256').update('learning-platform development secrets key').digest(), warning: DEVELOPMENT_KEY_WARNING };
}

let keys: { key: Buffer; signingKey: Buffer } | undefined;

function install(key: Buffer) {
  keys = { key, signingKey: createHmac('sha256', key).update('signing').digest() };
  return keys;
}

/**
 * Decides the key at start-up (main calls it before opening the database), so a missing key is a
 * clear error and not a failure on the first secret written. Returns the warning to print, if any.
 */
export function checkSecretsKey(env: SecretsEnv): string | undefined {
  const chosen = chooseSecretsKey(env);
  install(chosen.key);
  return chosen.warning;
}

/** The key in force; code run without main (tests, tools) gets the same decision on first use. */
export const secretKeys = () => keys ?? install(chooseSecretsKey(config.secrets).key);

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKeys().key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function decryptSecret(stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a secret this service stored');
  const decipher = createDecipheriv('aes-256-gcm', secretKeys().key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/** Values shorter than this show no characters at all: the last four would reveal too much of them. */
export const SECRET_HINT_MIN_LENGTH = 12;

/**
 * What a reply may show of a write-only secret: `****` and its last four characters when it has
 * at least 12 characters, else `****` alone.
 */
export const secretHint = (plain: string) => (plain.length >= SECRET_HINT_MIN_LENGTH ? `****${plain.slice(-4)}` : '****');

/** The two columns a write-only secret `field` is stored in: `<field>Ciphertext` and `<field>Hint`. */
export type SecretColumns<F extends string> = { [K in `${F}Ciphertext` | `${F}Hint`]?: string | null };

/** The stored columns of a secret's value: encrypted with its hint, or both null for a blank one. */
export function storedSecret<F extends string>(field: F, plain: string): SecretColumns<F> {
  const value = plain.trim();
  return { [`${field}Ciphertext`]: value ? encryptSecret(value) : null, [`${field}Hint`]: value ? secretHint(value) : null } as SecretColumns<F>;
}

