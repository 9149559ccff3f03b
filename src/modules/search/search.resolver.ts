import 'reflect-metadata';
import { Args, Ctx, Extensions, Query, Resolver } from 'type-graphql';
import { countHits, searchRows } from '../../content/search.js';
import type { Context } from '../../graphql/context.js';
import { AppError } from '../../graphql/errors.js';
import { fieldCost } from '../../graphql/limits.js';
import { readerOf } from '../../graphql/reader.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, numberedPage } from '../../graphql/pagination.js';
import { SearchArgs } from './search.input.js';
import { searchableTypes, searchWords } from './search.rules.js';
import { SearchHit, SearchHitConnection } from './search.type.js';

/**
 * What a search costs of its own in the query-cost model, besides its page of hits: it reads up to four
 * tables' trigram indexes and ranks every match before it pages, as a page of 100 plain objects would cost.
 */
export const SEARCH_COST = 100;

/** A cursor is the hit's position in the ranking (1 for the best): hits are ordered by score, not id. */
const cursorOf = (position: number) => Buffer.from(`hit:${position}`).toString('base64url');
function positionOf(cursor: string): number {
  const match = /^hit:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new AppError('bad_request', 'after is not a cursor this search gave', ['after']);
  return Number(match[1]);
}

/** The page asked: numbered (page, perPage) as every list, else first/after by position. */
function windowOf(args: SearchArgs): { limit: number; offset: number } {
  if (args.page !== undefined && args.page !== null) {
    const asked = numberedPage(args.page, args.perPage);
    if ('field' in asked) throw new AppError('bad_request', asked.message, [asked.field]);
    return { limit: asked.perPage, offset: (asked.page - 1) * asked.perPage };
  }
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  if (first < 0 || first > MAX_PAGE_SIZE) throw new AppError('bad_request', `first must be between 0 and ${MAX_PAGE_SIZE}`, ['first']);
  return { limit: first, offset: args.after ? positionOf(args.after) : 0 };
}

@Resolver(() => SearchHit)
export class SearchResolver {
  @Extensions(fieldCost(SEARCH_COST))
  @Query(() => SearchHitConnection, {
    description:
      "Finds the school's students (full name, e-mail), courses (name, description), lessons (title, description) and forum questions (title, description) " +
      'whose title or body holds every word of `text`, accents and case ignored, best first (a title match above a body match). ' +
      'Each kind only for a credential that may list it, as its list shows it: a student finds courses, forum questions and the lessons its enrollments release, never people. ' +
      'REST: GET /search?q=&types=.',
  })
  async search(@Args(() => SearchArgs) args: SearchArgs, @Ctx() ctx: Context): Promise<SearchHitConnection> {
    const { phrase, words } = searchWords(args.text);
    const window = windowOf(args);
    const types = searchableTypes(ctx.credential?.role, args.types);
    const searcher = { reader: readerOf(ctx), now: ctx.now() };
    // One row more than the page tells whether another page follows.
    const rows = types.length && window.limit > 0 ? await searchRows(searcher, types, phrase, words, window.limit + 1, window.offset) : [];
    const nodes: SearchHit[] = rows.slice(0, window.limit).map(({ type, id, title, body, score }) => ({ type, id, title, score, excerpt: excerptOf(body, words) }));
    const totalCount = rows.length ? rows[0].total : types.length && (window.offset > 0 || window.limit === 0) ? await countHits(searcher, types, words) : 0;
    const positions = nodes.map((_, i) => window.offset + i + 1);
    return {
      nodes,
      edges: nodes.map((node, i) => ({ cursor: cursorOf(positions[i]), node })),
      totalCount,
      pageInfo: {
        hasNextPage: rows.length > window.limit,
        hasPreviousPage: window.offset > 0,
        startCursor: nodes.length ? cursorOf(positions[0]) : null,
        endCursor: nodes.length ? cursorOf(positions[positions.length - 1]) : null,
      },
    };
  }
}

/** Characters an excerpt holds around its first match. */
const EXCERPT = 200;
/** One character folded as f_unaccent and ILIKE fold it (close enough to place an excerpt). */
const fold = (char: string) => char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The body without markup, cut to EXCERPT characters around the first word found in it (from its start when none is). */
export function excerptOf(body: string | null, words: string[]): string | null {
  if (!body) return null;
  const chars = [...body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim()];
  if (chars.length <= EXCERPT) return chars.join('');
  // Folded text, and for each of its characters the index of the character it came from.
  let folded = '';
  const origin: number[] = [];
  chars.forEach((c, i) => {
    const f = fold(c);
    folded += f;
    for (let k = 0; k < f.length; k++) origin.push(i);
  });
  const found = words.map((w) => folded.indexOf(fold(w))).filter((i) => i >= 0);
  const at = found.length ? origin[Math.min(...found)] : 0;
  const start = Math.max(0, Math.min(at - EXCERPT / 4, chars.length - EXCERPT));
  const cut = chars.slice(start, start + EXCERPT).join('');
  return `${start > 0 ? '…' : ''}${cut}${start + EXCERPT < chars.length ? '…' : ''}`;
}
