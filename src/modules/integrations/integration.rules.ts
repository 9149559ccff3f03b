import { and, eq } from 'drizzle-orm';
import { decryptSecret, encryptSecret, secretHint } from '../../auth/secrets.js';
import type { Queryable } from '../../db/client.js';
import { idOrNull } from '../../graphql/ids.js';
import { checkedPolymorphicType, polymorphicType } from '../../graphql/references.js';
import type { Checks } from '../../graphql/validation.js';
import { courses } from '../courses/course.table.js';
import { EVENT_NAMES } from '../events/events.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { users } from '../users/user.table.js';
import { refusedWebhookUrl } from '../webhooks/webhook.http.js';
import type { IntegrationRow } from './integration.table.js';

/** What an integration may belong to; each must be an object of the integration's school. */
export const INTEGRATION_OWNER_TYPES = ['School', 'SchoolProduct', 'Course', 'Student', 'Collaborator'] as const;
export type IntegrationOwnerType = (typeof INTEGRATION_OWNER_TYPES)[number];

/** `SchoolProduct`, `school_product`, `schoolproduct` all name SchoolProduct. */
export function ownerTypeOf(value: string): IntegrationOwnerType | null {
  return polymorphicType(value, INTEGRATION_OWNER_TYPES);
}

/** Checks the owner pair as it will be; returns it, or null when something is wrong (reported on `checks`). */
export async function checkOwner(
  tx: Queryable,
  checks: Checks,
  schoolId: number,
  rawType: string | null | undefined,
  rawId: string | number | null | undefined,
): Promise<{ ownerType: IntegrationOwnerType; ownerId: number } | null> {
  if (rawType === null || rawType === undefined || rawId === null || rawId === undefined) return null;
  const ownerType = checkedPolymorphicType(checks, 'ownerType', String(rawType), INTEGRATION_OWNER_TYPES);
  if (!ownerType) return null;
  const ownerId = idOrNull(rawId);
  let found = false;
  if (ownerId !== null) {
    if (ownerType === 'School') found = ownerId === schoolId;
    else {
      const table = ownerType === 'SchoolProduct' ? schoolProducts : ownerType === 'Course' ? courses : users;
      const kind = ownerType === 'Student' || ownerType === 'Collaborator' ? eq(users.type, ownerType) : undefined;
      const rows = await tx
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.id, ownerId), eq(table.schoolId, schoolId), kind));
      found = rows.length > 0;
    }
  }
  if (!found) {
    checks.add('ownerId', 'not_found', `has no ${ownerType} of this school with id ${rawId}`);
    return null;
  }
  return { ownerType, ownerId: ownerId! };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The metadata as stored: `{"events": [...]}` with every name among EVENT_NAMES (no duplicates).
 * A bare list is read as the events; a single name as a list of one (form posts without `[]`).
 */
export function checkMetadata(checks: Checks, value: unknown): { events: string[] } | null | undefined {
  if (value === undefined || value === null) return value;
  const c = checks.nested('metadata');
  let events: unknown;
  if (Array.isArray(value)) events = value;
  else if (isPlainObject(value)) {
    const unknownKeys = Object.keys(value).filter((k) => k !== 'events');
    if (unknownKeys.length) c.add(null, 'invalid', `may only carry events (unknown keys: ${unknownKeys.join(', ')})`);
    events = value.events ?? [];
  } else {
    c.add(null, 'invalid', 'must be a hash: {"events": ["enrollment.created", ...]}');
    return null;
  }
  if (typeof events === 'string') events = [events];
  if (!Array.isArray(events) || events.some((e) => typeof e !== 'string')) {
    c.add('events', 'invalid', 'must be a list of event names');
    return null;
  }
  const names = [...new Set((events as string[]).map((e) => e.trim()))];
  const unknown = names.filter((e) => !(EVENT_NAMES as readonly string[]).includes(e));
  if (unknown.length)
    c.add('events', 'inclusion', `names events this service does not emit: ${unknown.join(', ')} (known: ${EVENT_NAMES.join(', ')})`);
  return { events: names };
}

/** What a reply shows of a configuration value: secretHint of its text (a mask, the last four characters of a long one). */
const hint = (value: unknown) => secretHint(typeof value === 'string' ? value : JSON.stringify(value));

export const maskedConfig = (config: Record<string, unknown>) => Object.fromEntries(Object.keys(config).map((k) => [k, hint(config[k])]));

/** A metaconfig change: the hash as it will be (null: cleared) and whether its `url` is new. Update merges (see IntegrationInput). */
export interface MetaconfigChange {
  next: Record<string, unknown> | null;
  newUrl: boolean;
}

export function metaconfigChange(
  given: Record<string, unknown> | null | undefined,
  current?: Pick<IntegrationRow, 'metaconfigCiphertext'>,
): MetaconfigChange | undefined {
  if (given === undefined) return undefined;
  if (given === null) return { next: null, newUrl: false };
  const stored: Record<string, unknown> = current?.metaconfigCiphertext ? JSON.parse(decryptSecret(current.metaconfigCiphertext)) : {};
  const next: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(given)) {
    if (value === null) delete next[key];
    else if (key in stored && typeof value === 'string' && value === hint(stored[key])) continue;
    else next[key] = value;
  }
  return { next, newUrl: next.url !== undefined && next.url !== stored.url };
}

/**
 * A new `url` must be one webhooks may call (webhooks/webhook.http.ts): http(s), and a public
 * address, its name resolved now. The stored one was checked when it was saved; delivery checks again.
 */
export async function checkMetaconfigUrl(checks: Checks, change: MetaconfigChange | undefined, allowPrivate: boolean) {
  if (!change?.newUrl) return;
  const why = await refusedWebhookUrl(change.next!.url, allowPrivate);
  if (why) checks.nested('metaconfig').add('url', 'invalid', why);
}

/**
 * The stored columns for a metaconfig change. The whole hash is encrypted as JSON; the masked view
 * (keys and hints) is kept beside it so replies never decrypt.
 */
export function metaconfigColumns(change: MetaconfigChange | undefined): Partial<Pick<IntegrationRow, 'metaconfigCiphertext' | 'metaconfigPublic'>> {
  if (change === undefined) return {};
  if (change.next === null) return { metaconfigCiphertext: null, metaconfigPublic: null };
  return { metaconfigCiphertext: encryptSecret(JSON.stringify(change.next)), metaconfigPublic: maskedConfig(change.next) };
}
