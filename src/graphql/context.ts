import DataLoader from 'dataloader';
import { checkSchoolRows } from '../auth/egress.js';
import { acrossSchools, type RequestAccess, signedSchoolScope } from '../auth/tenancy.js';
import type { IdentitySettings } from '../config.js';
import type { Db } from '../db/client.js';
import type { ReadRouting } from '../db/read-routing.js';
import type { Locale } from '../errors/i18n.js';
import type { ExecutionBudget } from './budget.js';

/**
 * What every resolver receives; built once per request by graphql/request-context.ts. Its
 * credential, scope and school status (auth/tenancy.ts' RequestAccess) are decided there and
 * never change; an act that makes a school runs in a context of its own (`acrossSchoolsContext`).
 */
export interface Context extends RequestAccess {
  db: Db;
  /** The language of its error messages, from Accept-Language (errors/i18n.ts); English by default. */
  locale: Locale;
  now(): Date;
  /** Logs an error under the request without failing it (a by-id loader's withheld breach, graphql/loaders.ts). */
  log(error: unknown): void;
  /** Webhook URLs may name loopback and private addresses (WEBHOOKS_ALLOW_PRIVATE_NETWORKS): checked when an integration is saved. */
  webhooksAllowPrivateNetworks?: boolean;
  /** OpenID issuers may be http and loopback or private addresses (SSO_ALLOW_INSECURE_ISSUERS): development and tests only. */
  ssoAllowInsecureIssuers?: boolean;
  loaders: LoaderRegistry;
  /** Where the request came from (sign-in throttles by address and finds the school by host); absent outside a request. */
  client?: { address: string; host: string | null; schoolHeader: string | null };
  /** Sign-in and session settings of this app (config.identity when absent). */
  identity?: IdentitySettings;
  /** Where an operation that only reads runs (DATABASE_READ_URL); absent: everything on `db`. */
  reads?: ReadRouting;
  /** What the running operation may still take (graphql/budget.ts); set by the executor per operation. */
  budget?: ExecutionBudget;
}

/** A batch function defined once per module; the registry turns it into a per-request DataLoader. */
export interface LoaderDefinition<K, V> {
  readonly name: string;
  batch(ctx: Context, keys: readonly K[]): Promise<readonly (V | Error)[]>;
  cacheKey?: (key: K) => unknown;
  /** Rows meant for anyone who names them (a media's public view): the tenancy check does not apply. */
  readonly public?: boolean;
}

/** The same loader, marked as serving a public view (see LoaderDefinition.public). */
export const publicLoader = <K, V>(definition: LoaderDefinition<K, V>): LoaderDefinition<K, V> => ({ ...definition, public: true });

export function defineLoader<K, V>(
  name: string,
  batch: LoaderDefinition<K, V>['batch'],
  cacheKey?: (key: K) => unknown,
): LoaderDefinition<K, V> {
  return { name, batch, cacheKey };
}

/** Per-request loaders, each created on first use (Saleor's pattern). */
export class LoaderRegistry {
  private readonly loaders = new Map<LoaderDefinition<any, any>, DataLoader<any, any, any>>();
  /** `ctx` gives the context the batches read (Apollo hands resolvers a shallow copy of it). */
  constructor(private readonly ctx: () => Context) {}

  get<K, V>(definition: LoaderDefinition<K, V>): DataLoader<K, V, unknown> {
    let loader = this.loaders.get(definition);
    if (!loader) {
      // Every batch's rows pass the tenancy check (auth/egress.ts): a second line behind the loaders' own filters.
      const batch = definition.public
        ? (keys: readonly K[]) => definition.batch(this.ctx(), keys)
        : async (keys: readonly K[]) => checkSchoolRows(this.ctx(), await definition.batch(this.ctx(), keys), definition.name);
      loader = new DataLoader<K, V, unknown>(batch, {
        cacheKeyFn: definition.cacheKey,
        maxBatchSize: 1000,
      });
      this.loaders.set(definition, loader);
    }
    return loader as DataLoader<K, V, unknown>;
  }

  /** After a write, cached reads of the written rows are stale. */
  clearAll(): void {
    for (const loader of this.loaders.values()) loader.clearAll();
  }
}

export const load = <K, V>(ctx: Context, definition: LoaderDefinition<K, V>, key: K) =>
  ctx.loaders.get(definition).load(key);

/** A context of `fields` with loaders of its own, whose batches read it. */
export function withLoaders<C extends Omit<Context, 'loaders'>>(fields: C): C & { loaders: LoaderRegistry } {
  const ctx = { ...fields, loaders: undefined as unknown as LoaderRegistry };
  ctx.loaders = new LoaderRegistry(() => ctx);
  return ctx;
}

/**
 * Marks a root field that makes a school (`@Extensions(ACTS_ACROSS_SCHOOLS)`): an operation running
 * one runs in `acrossSchoolsContext` (graphql/executor.ts).
 */
export const ACTS_ACROSS_SCHOOLS = { actsAcrossSchools: true } as const;

/** Marks a root query field that must read the primary, never a replica (`@Extensions(READS_PRIMARY)`): the event feed's snapshot rule. */
export const READS_PRIMARY = { readsPrimary: true } as const;

/** The context of an operation that makes a school: the same request in the scope `acrossSchools` derives, with loaders of its own (nothing read in the other scope is reused). */
export function acrossSchoolsContext<C extends Context>(ctx: C): C {
  const scope = acrossSchools(ctx);
  if (!scope) return ctx;
  const { loaders: _, ...fields } = ctx;
  return withLoaders({ ...fields, scope }) as C;
}

/**
 * The context of an anonymous operation once a signature proved the school it speaks for (a
 * gateway's callback: modules/orders/gateway-notification.ts): the same request in that school's
 * scope (tenancy.ts' `signedSchoolScope`), with loaders of its own. Still no credential: no role
 * rule is passed by it.
 */
export function signedSchoolContext<C extends Context>(ctx: C, schoolId: number): C {
  const { loaders: _, ...fields } = ctx;
  return withLoaders({ ...fields, scope: signedSchoolScope(schoolId) }) as C;
}
