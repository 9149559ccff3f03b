import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, secretHint, signToken, verifyToken } from '../src/auth/secrets.js';

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
