import DataLoader from 'dataloader';
import type { Credential } from '../auth/credential.js';
import type { Db } from '../db/client.js';
import type { SchoolStatus } from '../auth/school-gate.js';
import { checkSchoolRows } from '../auth/egress.js';
import type { ExecutionBudget } from './budget.js';

/**
 * Who a request acts for, explicitly: the platform across schools, one school, or nobody. Tenancy
 * conditions fail closed: only `platform` reads across schools; `anonymous` matches no row.
 */
export type Tenancy = 'platform' | 'school' | 'anonymous';

/** What every resolver receives; built once per request by graphql/request-context.ts. */
export interface Context {
  db: Db;
  credential: Credential | null;
  /**
   * The school every read and write is scoped to: the credential's school, or for a platform
   * credential the school it names with `X-School-Id` (null: a platform credential reading across schools).
   */
  schoolId: number | null;
  tenancy: Tenancy;
  /** The status of the credential's own school (null for the platform and anonymous): it gates what the credential may do. */
  schoolStatus: SchoolStatus | null;
  now(): Date;
  /** Webhook URLs may name loopback and private addresses (WEBHOOKS_ALLOW_PRIVATE_NETWORKS): checked when an integration is saved. */
  webhooksAllowPrivateNetworks?: boolean;
  loaders: LoaderRegistry;
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
  constructor(private readonly ctx: () => Context) {}

  /** The context the batches read (Apollo hands resolvers a shallow copy of it). */
  context(): Context {
    return this.ctx();
  }

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
