import { errorReply } from '../errors/reply.js';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import type { Role } from '../auth/credential.js';
import type { Db } from '../db/client.js';
import { inList } from '../db/columns.js';
import { apiTokens } from '../auth/api-token.table.js';
import { schoolStatusAccess } from '../auth/school-gate.js';
import type { SchoolStatus } from '../db/school.table.js';
import { schools } from '../db/school.table.js';

/**
 * The open subscription sockets of one instance, under the rules requests live by: how many one
 * credential and one client address may hold, how long one may stay without a credential, and
 * whether the credentials they hold are still good. Each socket holds the digests of the tokens it
 * runs with (its connection's, and those a subscription names in its own `extensions.headers`); on
 * every `credentials_changed` (a token revoked, a school's status changed, a school deleted) the
 * digests of every open socket are read again in one statement, and a socket holding one that is
 * no longer valid is closed: 4401 for a token revoked or gone, 4403 for a school that forbids its
 * credentials everything (canceled).
 */
export interface SocketLimits {
  /** Open sockets holding one credential (per instance). */
  maxPerCredential: number;
  /** Open sockets of one client address, with a credential or without (per instance). */
  maxPerAddress: number;
  /** How long a socket may go without a credential: before its connection_init, or after one without a credential while no subscription holds its own. */
  authenticateWithinMs: number;
  /** Every open socket's credentials are read again this often, besides on each `credentials_changed` (0: only then). */
  recheckEveryMs: number;
}

/** A close of a socket: the WebSocket close code and its reason. */
export interface Closing {
  code: number;
  reason: string;
}

const invalid: Closing = errorReply('close', { code: 'unauthenticated', message: 'The credential is not valid' });

/**
 * Why a socket holding a credential of `role` (of the school `schoolId`, whose status is `status`)
 * must close, or null while it may stay: the gate of auth/guard.ts for reads. The platform is never
 * gated; a school credential whose school is gone is not valid; a school whose status forbids its
 * credentials everything (canceled) closes them; one that lets them read (blocked, suspended) keeps
 * its subscriptions, which only read.
 */
export function closingOf(role: Role, schoolId: number | null, status: SchoolStatus | null): Closing | null {
  if (role === 'platform') return null;
  if (schoolId === null || status === null) return invalid;
  if (schoolStatusAccess[status] === 'none') return errorReply('close', { code: 'forbidden', message: `The school is ${status}: its credentials may do nothing` });
  return null;
}

/** One open socket: its client address and the credentials it holds. */
export class SocketState {
  /** The digest of the connection's token (connection_init), or null without one. */
  connection: string | null = null;
  /** The digests of the tokens subscriptions run with of their own (`extensions.headers`), by subscription id. */
  readonly operations = new Map<string, string>();
  closed = false;
  timer: NodeJS.Timeout | undefined;

  constructor(
    readonly socket: WebSocket,
    readonly address: string,
  ) {}

  /** Every credential the socket holds. */
  digests(): Set<string> {
    const all = new Set(this.operations.values());
    if (this.connection) all.add(this.connection);
    return all;
  }

  holds(digest: string): boolean {
    return this.connection === digest || [...this.operations.values()].includes(digest);
  }

  close(closing: Closing): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close(closing.code, closing.reason);
  }
}

export class SocketRegistry {
  private readonly sockets = new Map<WebSocket, SocketState>();
  private readonly perAddress = new Map<string, number>();
  private readonly perCredential = new Map<string, Set<SocketState>>();
  /** Bumped by every announced change of credentials (and every periodic recheck): a socket checked at an older one is read again. */
  generation = 0;
  /** The generation every open socket has been read at. */
  private checked = 0;
  private running: Promise<void> | undefined;
  private readonly interval: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    readonly limits: SocketLimits,
    private readonly log: (error: unknown) => void,
    /** The service's clock: a socket whose token expired closes at the next recheck. */
    private readonly now: () => Date = () => new Date(),
  ) {
    if (limits.recheckEveryMs > 0) {
      this.interval = setInterval(() => {
        if (this.sockets.size) this.changed();
      }, limits.recheckEveryMs);
      this.interval.unref();
    }
  }

  /** How many sockets are open (tests). */
  get size(): number {
    return this.sockets.size;
  }

  /** Whether `address` may open one more socket. */
  mayOpen(address: string): boolean {
    return (this.perAddress.get(address) ?? 0) < this.limits.maxPerAddress;
  }

  /** Registers an accepted socket (closing it at once when its address is over the cap after all); forgets it when it closes. */
  open(socket: WebSocket, address: string): SocketState {
    const state = new SocketState(socket, address);
    this.sockets.set(socket, state);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    socket.once('close', () => this.forget(state));
    if ((this.perAddress.get(address) ?? 0) > this.limits.maxPerAddress) state.close(tooManyFromAddress(this.limits.maxPerAddress));
    return state;
  }

  stateOf(socket: WebSocket): SocketState | undefined {
    return this.sockets.get(socket);
  }

  /**
   * Lets `state` hold `digest`, as its connection's credential (`operation` undefined) or as one
   * subscription's own: false when the credential already holds as many other sockets as it may.
   */
  hold(state: SocketState, digest: string, operation?: string): boolean {
    if (!state.holds(digest)) {
      const holders = this.perCredential.get(digest) ?? new Set<SocketState>();
      if (holders.size >= this.limits.maxPerCredential) return false;
      holders.add(state);
      this.perCredential.set(digest, holders);
    }
    if (operation === undefined) state.connection = digest;
    else state.operations.set(operation, digest);
    this.idle(state);
    return true;
  }

  /** The subscription `operation` ended: its own credential is no longer held by it. */
  release(state: SocketState, operation: string): void {
    const digest = state.operations.get(operation);
    if (digest === undefined) return;
    state.operations.delete(operation);
    if (!state.holds(digest)) this.unhold(state, digest);
    this.idle(state);
  }

  /**
   * Starts or stops the clock of a socket without a credential: one whose connection named none and
   * none of whose subscriptions holds one of its own is closed after `authenticateWithinMs`.
   */
  idle(state: SocketState): void {
    const bare = state.connection === null && state.operations.size === 0;
    if (!bare) {
      clearTimeout(state.timer);
      state.timer = undefined;
    } else if (!state.timer && !state.closed) {
      const ms = this.limits.authenticateWithinMs;
      state.timer = setTimeout(() => {
        state.timer = undefined;
        if (state.connection === null && state.operations.size === 0)
          state.close(errorReply('close', { code: 'unauthenticated', message: `Authenticate within ${ms} ms: a credential in connection_init, or in a subscription's extensions.headers` }));
      }, ms);
      state.timer.unref();
    }
  }

  /** A change of credentials was announced (`credentials_changed`): every open socket is read again. */
  changed(): void {
    this.generation += 1;
    this.settle().catch(this.log);
  }

  /**
   * Resolves once every open socket has been read at the latest generation (at once when it has):
   * a subscribe frame waits for it when a change was announced since its socket was last checked.
   */
  settle(): Promise<void> {
    if (this.checked === this.generation) return Promise.resolve();
    return (this.running ??= (async () => {
      try {
        while (this.checked !== this.generation) {
          const generation = this.generation;
          await this.recheck();
          this.checked = generation;
        }
      } finally {
        this.running = undefined;
      }
    })());
  }

  /** Closes every socket whose credentials are no longer valid: one statement for all of them. */
  private async recheck(): Promise<void> {
    const open = [...this.sockets.values()].filter((s) => !s.closed);
    const digests = [...new Set(open.flatMap((s) => [...s.digests()]))];
    const verdicts = new Map<string, Closing | null>();
    if (digests.length) {
      const rows = await this.db
        .select({ digest: apiTokens.tokenDigest, role: apiTokens.role, schoolId: apiTokens.schoolId, status: schools.status })
        .from(apiTokens)
        .leftJoin(schools, eq(schools.id, apiTokens.schoolId))
        .where(
          and(inList(apiTokens.tokenDigest, digests), isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, this.now()))),
        );
      for (const row of rows) verdicts.set(row.digest, closingOf(row.role, row.schoolId, row.status));
    }
    for (const state of open) {
      for (const digest of state.digests()) {
        const closing = verdicts.has(digest) ? verdicts.get(digest)! : invalid;
        if (closing) {
          state.close(closing);
          break;
        }
      }
    }
  }

  private unhold(state: SocketState, digest: string): void {
    const holders = this.perCredential.get(digest);
    holders?.delete(state);
    if (holders && holders.size === 0) this.perCredential.delete(digest);
  }

  private forget(state: SocketState): void {
    state.closed = true;
    clearTimeout(state.timer);
    if (!this.sockets.delete(state.socket)) return;
    for (const digest of state.digests()) this.unhold(state, digest);
    const left = (this.perAddress.get(state.address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(state.address, left);
    else this.perAddress.delete(state.address);
  }

  /** Stops the periodic recheck (the server is closing). */
  stop(): void {
    clearInterval(this.interval);
  }
}

export const tooManyFromAddress = (max: number): Closing => errorReply('close', { code: 'too_many_sockets', message: `Too many sockets from this address (at most ${max})` });
export const tooManyForCredential = (max: number): Closing => errorReply('close', { code: 'too_many_sockets', message: `Too many sockets for this credential (at most ${max})` });
