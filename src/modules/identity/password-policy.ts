import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { Checks } from '../../graphql/validation.js';

/** NIST SP 800-63B asks for at least 8 characters, and no password from lists of common ones. */
export const MIN_PASSWORD_LENGTH = 8;
/** argon2 hashes any length, but a bound keeps a request from costing much. */
export const MAX_PASSWORD_LENGTH = 256;

// zxcvbn-ts with its common dictionaries (the most used passwords, common words, keyboard patterns):
// loaded and built once, at the first new password (a few MB of heap no other request needs).
let estimator: Promise<ZxcvbnFactory> | undefined;
const build = async () => {
  // Both are CommonJS: their module.exports is `default`, under Node and in the bundle alike (esbuild gives a
  // chunk of CommonJS no named exports).
  const [{ default: core }, { default: common }] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]);
  const { ZxcvbnFactory } = core;
  const { adjacencyGraphs, dictionary } = common;
  return new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
};
const strength = async (password: string, hints: string[]) => (await (estimator ??= build().catch((error) => ((estimator = undefined), Promise.reject(error))))).check(password, hints);

/**
 * Checks a new password: its length, and that it is not one of the most common passwords or as easy
 * to guess (zxcvbn's score under 2: under 10^8 guesses; `hints` are the person's own words, their
 * e-mail and name). Adds to `checks` under `field`.
 */
export async function checkNewPassword(checks: Checks, field: string, password: string | null | undefined, hints: string[] = []): Promise<Checks> {
  if (!password) return checks.add(field, 'blank', "can't be blank");
  if (password.length < MIN_PASSWORD_LENGTH) return checks.add(field, 'too_short', `is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)`, MIN_PASSWORD_LENGTH);
  if (password.length > MAX_PASSWORD_LENGTH) return checks.add(field, 'too_long', `is too long (maximum is ${MAX_PASSWORD_LENGTH} characters)`, MAX_PASSWORD_LENGTH);
  if ((await strength(password, hints)).score < 2) checks.add(field, 'too_common', 'is too common or too easy to guess: choose a longer, less usual one');
  return checks;
}
