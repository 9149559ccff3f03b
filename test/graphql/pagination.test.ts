import { eq, sql } from 'drizzle-orm';
import { Kind, parse, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schoolProducts, schoolProductTopics } from '../../src/modules/school-products/school-product.table.js';
import { AppError, notFound } from '../../src/errors/app-error.js';
import {
  asksFor,
  childConnectionLoaders,
  DEFAULT_PAGE_SIZE,
  DEFAULT_PER_PAGE,
  encodeCursor,
  MAX_PAGE,
  MAX_PAGE_SIZE,
  numberedPage,
  paginate,
  windowOf,
} from '../../src/graphql/pagination.js';
import { contextOf } from '../support/contexts.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// The connections of src/graphql/pagination.ts, driven directly against the database: the window a
// page request asks for, one page of a table (keyset or numbered) with its count in the same
// statement, a parent checked in the page statement, and the child connections of many parents in
// one statement.

let service: Service;
let school: TestSchool;
let other: TestSchool;
/** The school's products, in id order. */
let productIds: number[];
const TOTAL = 12;

twoSchools('Paging School', 'Other Paging School', async (w) => {
  ({ service, school, other } = w);
  const rows = await service.db
    .insert(schoolProducts)
    .values(Array.from({ length: TOTAL }, (_, i) => ({ schoolId: school.id, title: `P${i + 1}` })))
    .returning({ id: schoolProducts.id });
  productIds = rows.map((r) => r.id).sort((a, b) => a - b);
  await service.db.insert(schoolProducts).values({ schoolId: other.id, title: 'Foreign' });
});

const inSchool = () => eq(schoolProducts.schoolId, school.id);
const idsOf = (nodes: { id: number }[]) => nodes.map((n) => n.id);

describe('windowOf and numberedPage', () => {
  it('given nothing, then the first DEFAULT_PAGE_SIZE rows; given first and after, then the rows after that cursor', () => {
    expect(windowOf({})).toEqual({ limit: DEFAULT_PAGE_SIZE, offset: 0, afterId: null });
    expect(windowOf({ first: 5, after: encodeCursor(42) })).toEqual({ limit: 5, offset: 0, afterId: 42 });
    expect(windowOf({ first: 0 })).toEqual({ limit: 0, offset: 0, afterId: null });
  });

  it('given page (with or without perPage), then an offset, and page wins over first/after', () => {
    expect(windowOf({ page: 3 })).toEqual({ limit: DEFAULT_PER_PAGE, offset: 2 * DEFAULT_PER_PAGE, afterId: null });
    expect(windowOf({ page: 2, perPage: 7, first: 1, after: encodeCursor(1) })).toEqual({ limit: 7, offset: 7, afterId: null });
    expect(numberedPage(MAX_PAGE, MAX_PAGE_SIZE)).toEqual({ page: MAX_PAGE, perPage: MAX_PAGE_SIZE });
  });

  it.each<[string, object, string]>([
    ['first below 0', { first: -1 }, 'first'],
    ['first above the maximum', { first: MAX_PAGE_SIZE + 1 }, 'first'],
    ['page 0', { page: 0 }, 'page'],
    ['page past the Int range', { page: MAX_PAGE + 1 }, 'page'],
    ['perPage 0', { page: 1, perPage: 0 }, 'perPage'],
    ['perPage above the maximum', { page: 1, perPage: MAX_PAGE_SIZE + 1 }, 'perPage'],
    ['a cursor this service did not give', { after: 'bm90LWEtY3Vyc29y' }, 'after'],
    ['a cursor past the id range', { after: Buffer.from('id:99999999999').toString('base64url') }, 'after'],
  ])('given %s, then a bad_request naming the argument', (_what, args, field) => {
    let thrown: unknown;
    try {
      windowOf(args);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: 'bad_request', field: [field] });
  });
});

describe('paginate', () => {
  it('given first, then that many rows in id order, hasNextPage and the cursors; the count rides in the same statement', async () => {
    const ctx = await contextOf(service, school.admin);
    let page!: Awaited<ReturnType<typeof paginate<typeof schoolProducts>>>;
    const statements = await service.countStatements(async () => {
      page = await paginate(ctx, schoolProducts, inSchool(), { first: 5 }, { count: true });
    });
    expect(statements).toBe(1);
    expect(idsOf(page.nodes)).toEqual(productIds.slice(0, 5));
    expect(page.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: encodeCursor(productIds[0]), endCursor: encodeCursor(productIds[4]) });
    expect(page.nodes[0]).not.toHaveProperty('__total');
    expect(await service.countStatements(async () => expect(await page.totalCount()).toBe(TOTAL))).toBe(0);
  });

  it('given the end cursor of a page, then the next rows; the count is then a statement of its own, made once', async () => {
    const ctx = await contextOf(service, school.admin);
    const first = await paginate(ctx, schoolProducts, inSchool(), { first: 5 });
    const next = await paginate(ctx, schoolProducts, inSchool(), { first: 10, after: first.pageInfo.endCursor }, { count: true });
    expect(idsOf(next.nodes)).toEqual(productIds.slice(5));
    expect(next.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(await service.countStatements(async () => expect(await next.totalCount()).toBe(TOTAL))).toBe(1);
    expect(await service.countStatements(() => next.totalCount())).toBe(0);
  });

  it('given a numbered page, then its rows; past the end, an empty page that still counts', async () => {
    const ctx = await contextOf(service, school.admin);
    const second = await paginate(ctx, schoolProducts, inSchool(), { page: 2, perPage: 5 });
    expect(idsOf(second.nodes)).toEqual(productIds.slice(5, 10));
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const past = await paginate(ctx, schoolProducts, inSchool(), { page: 9, perPage: 5 }, { count: true });
    expect(past.nodes).toEqual([]);
    expect(past.pageInfo).toMatchObject({ hasNextPage: false, startCursor: null, endCursor: null });
    expect(await past.totalCount()).toBe(TOTAL);
  });

  it('given a parent, then it is checked in the page statement: an empty list of a parent that exists, or its error when it does not', async () => {
    const ctx = await contextOf(service, school.admin);
    const exists = (id: number) => sql`exists (select 1 from school_products where id = ${id} and school_id = ${school.id})`;
    const topics = (parentId: number, args: object) =>
      paginate(ctx, schoolProductTopics, eq(schoolProductTopics.schoolProductId, parentId), args, {
        count: true,
        parent: { exists: exists(parentId), missing: () => notFound('SchoolProduct') },
      });
    let empty!: Awaited<ReturnType<typeof topics>>;
    // The last product has no topics (the child connections below give the first ones some).
    const last = productIds[TOTAL - 1];
    expect(await service.countStatements(async () => (empty = await topics(last, { first: 5 })))).toBe(1);
    expect(empty.nodes).toEqual([]);
    expect(await empty.totalCount()).toBe(0);
    await expect(topics(999_999, { first: 5 })).rejects.toMatchObject({ code: 'not_found', message: 'SchoolProduct not found' });
    // A missing parent answers before a bad page; a parent that exists lets the bad page answer.
    await expect(topics(999_999, { first: -1 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(topics(last, { first: -1 })).rejects.toMatchObject({ code: 'bad_request', field: ['first'] });
  });
});

describe('childConnectionLoaders', () => {
  it("given several parents' connections asked at once, then one statement for their pages and one for their counts", async () => {
    const [a, b, c] = productIds;
    await service.db.insert(schoolProductTopics).values(
      [a, a, a, b].map((schoolProductId, i) => ({ schoolId: school.id, schoolProductId, title: `T${i}`, description: 'd' })),
    );
    const connectionOf = childConnectionLoaders('test.productTopics', schoolProductTopics, schoolProductTopics.schoolProductId, () =>
      eq(schoolProductTopics.schoolId, school.id),
    );
    const ctx = await contextOf(service, school.admin);
    let pages: Awaited<ReturnType<typeof connectionOf>>[] = [];
    let counts: number[] = [];
    const statements = await service.countStatements(async () => {
      pages = await Promise.all([a, b, c].map((id) => connectionOf(ctx, id, { first: 2 })));
      counts = await Promise.all(pages.map((p) => p.totalCount()));
    });
    expect(statements).toBe(2);
    expect(pages.map((p) => p.nodes.map((n) => n.title))).toEqual([['T0', 'T1'], ['T3'], []]);
    expect(pages.map((p) => p.pageInfo.hasNextPage)).toEqual([true, false, false]);
    expect(counts).toEqual([3, 1, 0]);
  });
});

describe('asksFor', () => {
  /** The resolve info of the operation's first field, as GraphQL hands it to that field's resolver. */
  function infoOf(document: string): GraphQLResolveInfo {
    const parsed = parse(document);
    const operation = parsed.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const fragments = Object.fromEntries(
      parsed.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
    );
    return { fieldNodes: [operation.selectionSet.selections[0] as FieldNode], fragments } as unknown as GraphQLResolveInfo;
  }

  it('given the field asked directly, through an inline fragment or a named one, then true; nested deeper or not at all, false', () => {
    expect(asksFor(infoOf('{ schoolProducts { totalCount } }'), 'totalCount')).toBe(true);
    expect(asksFor(infoOf('{ schoolProducts { ... on SchoolProductConnection { totalCount } } }'), 'totalCount')).toBe(true);
    expect(asksFor(infoOf('{ schoolProducts { ...Counted } } fragment Counted on SchoolProductConnection { totalCount }'), 'totalCount')).toBe(true);
    expect(asksFor(infoOf('{ schoolProducts { nodes { id } } }'), 'totalCount')).toBe(false);
    expect(asksFor(infoOf('{ schoolProducts { nodes { topics { totalCount: id } } } }'), 'totalCount')).toBe(false);
  });

  it('given fragments that spread each other, then each is read once', () => {
    const info = infoOf('{ schoolProducts { ...A } } fragment A on SchoolProductConnection { ...B } fragment B on SchoolProductConnection { ...A nodes { id } }');
    expect(asksFor(info, 'totalCount')).toBe(false);
  });
});
