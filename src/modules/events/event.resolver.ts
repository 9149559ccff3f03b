import 'reflect-metadata';
import { and, asc, count, inArray, sql, type SQL } from 'drizzle-orm';
import { Args, Ctx, Extensions, Query, Resolver } from 'type-graphql';
import { inSchool } from '../../auth/tenancy.js';
import { type Context, READS_PRIMARY } from '../../graphql/context.js';
import { AppError } from '../../graphql/errors.js';
import { windowOf } from '../../graphql/pagination.js';
import { domainEvents, type DomainEventRow } from './domain-event.table.js';
import { encodeEventCursor, EventConnection, EventsArgs } from './event.type.js';

/**
 * The pull feed. Its order is (txid, id): the writing transaction's id, then the event's. Ids are
 * handed out before commit, so transactions commit out of id order; a reader that followed ids would
 * pass an event still being committed and never see it. The feed reads only events of transactions
 * below the oldest one still running (`pg_snapshot_xmin` of the statement's snapshot): every such
 * transaction has ended, and every transaction that may still commit has a txid at or above that
 * bound, so it sorts after everything a reader has been given. A cursor never skips an event.
 */
export const VISIBLE = sql`${domainEvents.txid} < (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint`;

/** The largest 64-bit signed integer's digits: a txid cursor past it is no cursor of ours. */
const MAX_TXID = 9_223_372_036_854_775_807n;
const MAX_ID = 2_147_483_647;

export function decodeEventCursor(cursor: string): { txid: number; id: number } {
  const match = /^ev:(\d{1,19}):(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match || BigInt(match[1]) > MAX_TXID || Number(match[2]) > MAX_ID) throw new AppError('bad_request', 'after is not a cursor this service gave', ['after']);
  return { txid: Number(match[1]), id: Number(match[2]) };
}

/** Events after a cursor: (txid, id) greater than the cursor's, compared as a row. */
export const afterCursor = (cursor: { txid: number; id: number }): SQL =>
  sql`(${domainEvents.txid}, ${domainEvents.id}) > (${cursor.txid}::bigint, ${cursor.id}::int)`;

@Resolver()
export class EventResolver {
  // VISIBLE reads the primary's running transactions: a replica's snapshot is not the feed's rule.
  @Extensions(READS_PRIMARY)
  @Query(() => EventConnection, {
    description:
      "The school's events in commit order (txid, id), gap-free: a reader that passes each page's endCursor as after misses nothing " +
      'and sees nothing twice, even when transactions commit out of order; an empty page keeps the cursor it was given. Kept for the retention (README "Events").',
  })
  async events(@Args(() => EventsArgs) args: EventsArgs, @Ctx() ctx: Context): Promise<EventConnection> {
    const window = windowOf({ ...args, after: null });
    const after = args.after ? decodeEventCursor(args.after) : null;
    const where = and(
      inSchool(ctx, domainEvents.schoolId),
      args.names ? inArray(domainEvents.name, args.names.length ? args.names : ['']) : undefined,
      after ? afterCursor(after) : undefined,
      VISIBLE,
    );
    const rows: DomainEventRow[] = await ctx.db
      .select()
      .from(domainEvents)
      .where(where)
      .orderBy(asc(domainEvents.txid), asc(domainEvents.id))
      .limit(window.limit + 1)
      .offset(window.offset);
    const nodes = rows.slice(0, window.limit);
    const keep = args.after ?? null;
    let counted: Promise<number> | undefined;
    return Object.assign(new EventConnection(), {
      nodes,
      pageInfo: {
        hasNextPage: rows.length > window.limit,
        hasPreviousPage: after !== null || window.offset > 0,
        startCursor: nodes.length ? encodeEventCursor(nodes[0]) : keep,
        endCursor: nodes.length ? encodeEventCursor(nodes[nodes.length - 1]) : keep,
      },
      count: () => (counted ??= ctx.db.select({ n: count() }).from(domainEvents).where(where).then(([r]) => Number(r.n))),
    });
  }
}
