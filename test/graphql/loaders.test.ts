import { describe, expect, it } from 'vitest';
import { users } from '../../src/modules/users/user.table.js';
import { categories } from '../../src/modules/library/library.table.js';
import { registrationById, studentById } from '../../src/modules/enrollments/enrollment.loaders.js';
import { registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { categoryIdsOfProduct, schoolProductById, topicsOfProduct } from '../../src/modules/school-products/school-product.loaders.js';
import { schoolProductCategories, schoolProducts, schoolProductTopics } from '../../src/modules/school-products/school-product.table.js';
import { getTableColumns } from 'drizzle-orm';
import { findOr404, groupedByParent, loadMany, MAX_NARROWED_VARIANTS, narrowedVariants } from '../../src/graphql/loaders.js';
import { defineLoader } from '../../src/graphql/context.js';
import { contextOf } from '../support/contexts.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// The loaders of src/graphql/loaders.ts, driven directly against the database through real module
// loaders: a batch is one statement, answers in key order, and keeps to the context's school in SQL
// (a foreign row reads as missing, so the egress check behind it has nothing to catch).

let service: Service;
let school: TestSchool;
let other: TestSchool;
const ids: { own: number[]; foreign: number; empty: number; categories: number[] } = { own: [], foreign: 0, empty: 0, categories: [] };

twoSchools('Loader School', 'Other Loader School', async (w) => {
  ({ service, school, other } = w);
  const made = await service.db
    .insert(schoolProducts)
    .values([1, 2, 3].map((n) => ({ schoolId: school.id, title: `Own ${n}` })))
    .returning({ id: schoolProducts.id });
  ids.own = made.map((r) => r.id);
  ids.foreign = (await service.db.insert(schoolProducts).values({ schoolId: other.id, title: 'Foreign' }).returning())[0].id;
  ids.empty = ids.own[2];
  // Two topics of the first product, one of the second, one of the foreign product.
  await service.db.insert(schoolProductTopics).values([
    { schoolId: school.id, schoolProductId: ids.own[1], title: 'B1', description: 'd' },
    { schoolId: school.id, schoolProductId: ids.own[0], title: 'A1', description: 'd' },
    { schoolId: school.id, schoolProductId: ids.own[0], title: 'A2', description: 'd' },
    { schoolId: other.id, schoolProductId: ids.foreign, title: 'F1', description: 'd' },
  ]);
  const cats = await service.db
    .insert(categories)
    .values([1, 2].map((n) => ({ schoolId: school.id, name: `Category ${n}` })))
    .returning({ id: categories.id });
  ids.categories = cats.map((c) => c.id);
  const [foreignCategory] = await service.db.insert(categories).values({ schoolId: other.id, name: 'Foreign category' }).returning();
  await service.db.insert(schoolProductCategories).values([
    { schoolId: school.id, schoolProductId: ids.own[0], categoryId: ids.categories[1] },
    { schoolId: school.id, schoolProductId: ids.own[0], categoryId: ids.categories[0] },
    { schoolId: other.id, schoolProductId: ids.foreign, categoryId: foreignCategory.id },
  ]);
});

describe('byIdLoader', () => {
  it('given several ids asked in one tick, then one statement answers them in key order, null for a missing id', async () => {
    const ctx = await contextOf(service, school.admin);
    const loader = ctx.loaders.get(schoolProductById);
    let rows: unknown[] = [];
    const statements = await service.countStatements(async () => {
      rows = await Promise.all([ids.own[2], 999_999, ids.own[0], ids.own[1]].map((id) => loader.load(id)));
    });
    expect(statements).toBe(1);
    expect(rows.map((r: any) => r?.id ?? null)).toEqual([ids.own[2], null, ids.own[0], ids.own[1]]);
  });

  it("given another school's id, then null: the school's condition is in the statement, not after it", async () => {
    const ctx = await contextOf(service, school.admin);
    const [own, foreign] = await Promise.all([ctx.loaders.get(schoolProductById).load(ids.own[0]), ctx.loaders.get(schoolProductById).load(ids.foreign)]);
    expect(own).toMatchObject({ id: ids.own[0], schoolId: school.id });
    expect(foreign).toBeNull();
  });

  it('given the platform across schools, then every school reads; acting for one school (X-School-Id), only that one; anonymous, none', async () => {
    const across = await contextOf(service, service.platform);
    expect((await across.loaders.get(schoolProductById).loadMany([ids.own[0], ids.foreign])).map((r: any) => r?.id)).toEqual([ids.own[0], ids.foreign]);
    const acting = await contextOf(service, service.platform, { 'x-school-id': String(other.id) });
    expect((await acting.loaders.get(schoolProductById).loadMany([ids.own[0], ids.foreign])).map((r: any) => r?.id ?? null)).toEqual([null, ids.foreign]);
    const anonymous = await contextOf(service, null);
    expect(await anonymous.loaders.get(schoolProductById).load(ids.own[0])).toBeNull();
  });

  it('given a loader with a visibility condition, then a student reads its own row only', async () => {
    const [mine, theirs] = await service.db
      .insert(users)
      .values([1, 2].map((n) => ({ schoolId: school.id, type: 'Student' as const, fullName: `Loader student ${n}`, email: `loader-student${n}@example.com` })))
      .returning();
    const [own, others] = await service.db
      .insert(registrations)
      .values([mine, theirs].map((s) => ({ schoolId: school.id, studentId: s.id })))
      .returning();
    const student = await contextOf(service, await service.token('student', school.id, mine.id));
    expect((await student.loaders.get(registrationById).loadMany([own.id, others.id])).map((r: any) => r?.id ?? null)).toEqual([own.id, null]);
    const admin = await contextOf(service, school.admin);
    expect((await admin.loaders.get(registrationById).loadMany([own.id, others.id])).map((r: any) => r?.id ?? null)).toEqual([own.id, others.id]);
  });

  it('given the same id twice in one request, then the second load is served from the cache', async () => {
    const ctx = await contextOf(service, school.admin);
    await ctx.loaders.get(schoolProductById).load(ids.own[1]);
    expect(await service.countStatements(() => ctx.loaders.get(schoolProductById).load(ids.own[1]))).toBe(0);
  });

  it('given a narrowed variant, then the rows carry only the columns named with the id and school, in one statement, foreign ids null', async () => {
    const narrowed = schoolProductById.narrowed!(['title']);
    expect(schoolProductById.narrowed!(['title'])).toBe(narrowed);
    expect(schoolProductById.narrowed!(['schoolId', 'title', 'id'])).toBe(narrowed);
    const ctx = await contextOf(service, school.admin);
    let rows: unknown[] = [];
    expect(await service.countStatements(async () => (rows = await ctx.loaders.get(narrowed).loadMany([ids.own[1], ids.foreign, ids.own[0]])))).toBe(1);
    expect(rows).toEqual([{ id: ids.own[1], schoolId: school.id, title: 'Own 2' }, null, { id: ids.own[0], schoolId: school.id, title: 'Own 1' }]);
    const across = await contextOf(service, service.platform);
    expect(await across.loaders.get(narrowed).load(ids.foreign)).toEqual({ id: ids.foreign, schoolId: other.id, title: 'Foreign' });
    expect(() => schoolProductById.narrowed!(['notAColumn'])).toThrow(/not all columns/);
  });

  it('given the students loader narrowed, then a student of the school with only the columns named; a student credential reads only itself', async () => {
    const [mine, theirs] = await service.db
      .insert(users)
      .values([1, 2].map((n) => ({ schoolId: school.id, type: 'Student' as const, fullName: `Narrow student ${n}`, email: `narrow-student${n}@example.com` })))
      .returning();
    const [admin] = await service.db.insert(users).values({ schoolId: school.id, type: 'Admin', fullName: 'Not a student', email: 'narrow-admin@example.com' }).returning();
    const narrowed = studentById.narrowed(['email', 'fullName']);
    const staff = await contextOf(service, school.admin);
    expect(await staff.loaders.get(narrowed).loadMany([mine.id, admin.id, theirs.id])).toEqual([
      { id: mine.id, schoolId: school.id, email: 'narrow-student1@example.com', fullName: 'Narrow student 1' },
      null,
      { id: theirs.id, schoolId: school.id, email: 'narrow-student2@example.com', fullName: 'Narrow student 2' },
    ]);
    expect(await (await contextOf(service, other.admin)).loaders.get(narrowed).load(mine.id)).toBeNull();
    const student = await contextOf(service, await service.token('student', school.id, mine.id));
    expect((await student.loaders.get(narrowed).loadMany([mine.id, theirs.id])).map((r: any) => r?.id ?? null)).toEqual([mine.id, null]);
  });
});

describe('childrenLoader', () => {
  it('given several parents, then one statement gives each its children in id order, [] for a parent without any', async () => {
    const ctx = await contextOf(service, school.admin);
    let lists: any[][] = [];
    const statements = await service.countStatements(async () => {
      lists = await Promise.all([ids.empty, ids.own[0], ids.own[1]].map((id) => ctx.loaders.get(topicsOfProduct).load(id)));
    });
    expect(statements).toBe(1);
    expect(lists.map((l) => l.map((t) => t.title))).toEqual([[], ['A1', 'A2'], ['B1']]);
  });

  it("given another school's parent, then no children", async () => {
    const ctx = await contextOf(service, school.admin);
    expect(await ctx.loaders.get(topicsOfProduct).load(ids.foreign)).toEqual([]);
  });
});

describe('linkedIdsLoader', () => {
  it("given a parent with links, then its linked ids in the link's order (the child id), and none through another school's parent", async () => {
    const ctx = await contextOf(service, school.admin);
    const [own, none, foreign] = await Promise.all([ids.own[0], ids.own[1], ids.foreign].map((id) => ctx.loaders.get(categoryIdsOfProduct).load(id)));
    expect(own).toEqual([...ids.categories].sort((a, b) => a - b));
    expect(none).toEqual([]);
    expect(foreign).toEqual([]);
  });
});

describe('findOr404 and loadMany', () => {
  it('given a missing, a foreign or an out-of-range id, then findOr404 throws the 404 of the type named', async () => {
    const ctx = await contextOf(service, school.admin);
    expect(await findOr404(ctx, schoolProductById, ids.own[0], 'SchoolProduct')).toMatchObject({ id: ids.own[0] });
    for (const id of [999_999, ids.foreign, Number.NaN, 2 ** 60]) {
      await expect(findOr404(ctx, schoolProductById, id, 'SchoolProduct')).rejects.toMatchObject({ code: 'not_found', message: 'SchoolProduct not found' });
    }
  });

  it('given ids some of which are gone, then loadMany gives the rows that are there; a failed batch fails it', async () => {
    const ctx = await contextOf(service, school.admin);
    expect((await loadMany(ctx, schoolProductById, [ids.own[1], 999_999, ids.foreign])).map((r) => r.id)).toEqual([ids.own[1]]);
    const failing = defineLoader<number, { id: number } | null>('test.failing', async (_ctx, keys) => keys.map((k) => (k === 2 ? new Error('read failed') : { id: k })));
    await expect(loadMany(ctx, failing, [1, 2])).rejects.toThrow('read failed');
  });
});

describe('groupedByParent', () => {
  it('given rows of several parents, then each parent its values in row order, [] for a parent without rows', () => {
    const rows = [
      { parent: 2, v: 'a' },
      { parent: 1, v: 'b' },
      { parent: 2, v: 'c' },
    ];
    expect(groupedByParent([1, 2, 3], rows, (r) => r.parent, (r) => r.v)).toEqual([['b'], ['a', 'c'], []]);
  });
});

describe('narrowedVariants', () => {
  it('keeps at most MAX_NARROWED_VARIANTS column lists; a new list past them gets the one variant of every column', () => {
    const made: string[] = [];
    const variantOf = narrowedVariants('products', schoolProducts, ['id'], (name, selected) => (made.push(name), { name, columns: Object.keys(selected) }));
    const keys = Object.keys(getTableColumns(schoolProducts)).filter((k) => k !== 'id');
    // Pairs of columns: far more distinct lists than the bound.
    const lists = keys.flatMap((a, i) => keys.slice(i + 1).map((b) => [a, b]));
    expect(lists.length).toBeGreaterThan(MAX_NARROWED_VARIANTS + 2);
    const variants = lists.map((list) => variantOf(list));
    expect(new Set(variants.slice(0, MAX_NARROWED_VARIANTS)).size).toBe(MAX_NARROWED_VARIANTS);
    const past = variants.slice(MAX_NARROWED_VARIANTS);
    expect(new Set(past).size).toBe(1);
    expect(past[0].columns.sort()).toEqual(Object.keys(getTableColumns(schoolProducts)).sort());
    expect(made).toHaveLength(MAX_NARROWED_VARIANTS + 1);
    // A list kept before the bound is still its own variant.
    expect(variantOf([...lists[0]])).toBe(variants[0]);
  });
});
