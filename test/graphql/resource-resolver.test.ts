import { eq } from 'drizzle-orm';
import { getMetadataStorage } from 'type-graphql';
import { describe, expect, it } from 'vitest';
import { categoryById } from '../../src/modules/library/library.loaders.js';
import { CategoryResolver } from '../../src/modules/library/category.resolver.js';
import { categories } from '../../src/modules/library/library.table.js';
import { RegistrationResolver } from '../../src/modules/enrollments/registration.resolver.js';
import { SchoolProductTopicResolver } from '../../src/modules/school-products/school-product-topic.resolver.js';
import { schoolProducts, schoolProductTopics } from '../../src/modules/school-products/school-product.table.js';
import { countRows } from '../support/rows.js';
import { contextOf } from '../support/contexts.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// The resource base of src/graphql/resource-resolver.ts, driven directly through two real resources:
// Category (the plain resource) and SchoolProductTopic (created and listed inside a parent named by
// an argument). Reads keep to the context's school, writes go to the written school in one
// transaction, and refused input comes back as the payload's errors with nothing written.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Resource School', 'Other Resource School', (w) => ({ service, school, other } = w));

const categoriesResolver = new CategoryResolver();
const topicsResolver = new SchoolProductTopicResolver();
const category = async (s: TestSchool, name: string) => (await service.db.insert(categories).values({ schoolId: s.id, name }).returning())[0];
const categoryRow = async (id: number) => (await service.db.select().from(categories).where(eq(categories.id, id)))[0];

describe('the root fields a spec declares', () => {
  /** The query and mutation names the base of a resolver declares, from type-graphql's metadata. */
  function rootFields(resolver: abstract new () => object) {
    // Each operation of the base is a class of its own, chained: read the whole chain above the resolver.
    const bases = new Set<Function>();
    for (let base = Object.getPrototypeOf(resolver); base && base !== Function.prototype; base = Object.getPrototypeOf(base)) bases.add(base);
    const storage = getMetadataStorage();
    return [...storage.queries, ...storage.mutations].filter((f) => bases.has(f.target)).map((f) => f.schemaName).sort();
  }

  it('given a type and a plural, then show, list, create, update and delete under its names; omitted operations are not declared', () => {
    expect(rootFields(CategoryResolver)).toEqual(['categories', 'category', 'createCategory', 'deleteCategory', 'updateCategory']);
    expect(rootFields(RegistrationResolver)).toEqual(['createRegistration', 'registration', 'registrations']);
  });

  it('given the spec, then the base holds what it reads (its GraphQL name, loader by id and table) and its payload type', () => {
    expect(CategoryResolver.resource).toMatchObject({ name: 'Category', byId: categoryById, table: categories });
    expect(getMetadataStorage().objectTypes.find((t) => t.target === CategoryResolver.Payload)?.name).toBe('CategoryPayload');
  });
});

describe('show and list', () => {
  it("given an id of the school, then the row; another school's, a missing or a malformed id, then the type's 404", async () => {
    const own = await category(school, 'Shown');
    const foreign = await category(other, 'Hidden');
    const ctx = await contextOf(service, school.admin);
    expect(await categoriesResolver.showOne(String(own.id), ctx)).toMatchObject({ id: own.id, name: 'Shown' });
    // A malformed id throws before any read: the async wrapper turns it into the rejection GraphQL sees.
    for (const id of [String(foreign.id), '999999', 'abc', '0'])
      await expect(async () => categoriesResolver.showOne(id, ctx)).rejects.toMatchObject({ code: 'not_found', message: 'Category not found' });
  });

  it("given the list, then a connection of the school's rows only; the platform across schools reads every school's", async () => {
    const ctx = await contextOf(service, other.admin);
    const mine = await category(other, 'Listed');
    const page: any = await categoriesResolver.listAll({ first: 100 }, ctx);
    expect(page.nodes.every((c: any) => c.schoolId === other.id)).toBe(true);
    expect(page.nodes.map((c: any) => c.id)).toContain(mine.id);
    expect(await page.totalCount()).toBe(page.nodes.length);
    const across: any = await categoriesResolver.listAll({ first: 100 }, await contextOf(service, service.platform));
    expect(new Set(across.nodes.map((c: any) => c.schoolId))).toEqual(new Set([school.id, other.id]));
  });
});

describe('create, update and delete', () => {
  it('given valid input, then the row is written in the context’s school and returned in the payload', async () => {
    const ctx = await contextOf(service, school.admin);
    const created: any = await categoriesResolver.createOne({ name: '  Created  ', slug: 'created' }, ctx);
    expect(created.errors).toEqual([]);
    expect(created.category).toMatchObject({ schoolId: school.id, name: 'Created', slug: 'created' });
    expect(await categoryRow(created.category.id)).toMatchObject({ schoolId: school.id, name: 'Created' });
  });

  it('given input the checks refuse, or a value a constraint refuses, then the payload carries the errors and nothing is written', async () => {
    const ctx = await contextOf(service, school.admin);
    const before = await countRows(service, categories);
    const blank: any = await categoriesResolver.createOne({ slug: 'no-name' }, ctx);
    expect(blank).toEqual({ category: null, errors: [expect.objectContaining({ field: ['name'], code: 'blank' })] });
    await categoriesResolver.createOne({ name: 'First', slug: 'taken-slug' }, ctx);
    const taken: any = await categoriesResolver.createOne({ name: 'Second', slug: 'taken-slug' }, ctx);
    expect(taken).toEqual({ category: null, errors: [expect.objectContaining({ field: ['slug'], code: 'taken' })] });
    expect(await countRows(service, categories)).toBe(before + 1);
  });

  it('given a platform credential naming no school, then a create is refused: it must name the school it writes to', async () => {
    const ctx = await contextOf(service, service.platform);
    await expect(categoriesResolver.createOne({ name: 'Nowhere' }, ctx)).rejects.toMatchObject({ code: 'bad_request' });
    const acting = await contextOf(service, service.platform, { 'x-school-id': String(other.id) });
    expect(((await categoriesResolver.createOne({ name: 'Somewhere' }, acting)) as any).category).toMatchObject({ schoolId: other.id });
  });

  it('given an update, then the locked row changes; an update that changes nothing returns the row as it is and writes nothing', async () => {
    const row = await category(school, 'Before');
    const ctx = await contextOf(service, school.admin);
    const updated: any = await categoriesResolver.updateOne(String(row.id), { name: 'After' }, ctx);
    expect(updated).toEqual({ category: expect.objectContaining({ id: row.id, name: 'After' }), errors: [] });
    const unchanged: any = await categoriesResolver.updateOne(String(row.id), {}, ctx);
    expect(unchanged.category).toEqual(await categoryRow(row.id));
  });

  it("given another school's row, then update and delete are the type's 404 and the row stays as it was", async () => {
    const foreign = await category(other, 'Untouched');
    const ctx = await contextOf(service, school.admin);
    await expect(categoriesResolver.updateOne(String(foreign.id), { name: 'Stolen' }, ctx)).rejects.toMatchObject({ code: 'not_found', message: 'Category not found' });
    await expect(categoriesResolver.deleteOne(String(foreign.id), ctx)).rejects.toMatchObject({ code: 'not_found' });
    expect(await categoryRow(foreign.id)).toEqual(foreign);
  });

  it('given a delete, then the payload returns the row and it is gone; the loaders forget it in the same request', async () => {
    const row = await category(school, 'Doomed');
    const ctx = await contextOf(service, school.admin);
    expect(await ctx.loaders.get(categoryById).load(row.id)).toMatchObject({ id: row.id });
    expect(await categoriesResolver.deleteOne(String(row.id), ctx)).toEqual({ category: expect.objectContaining({ id: row.id }), errors: [] });
    expect(await categoryRow(row.id)).toBeUndefined();
    await expect(categoriesResolver.showOne(String(row.id), ctx)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('a resource inside a parent named by an argument', () => {
  it("given the parent, then the list is that parent's rows and a create writes the parent's column", async () => {
    const [product, sibling] = await service.db
      .insert(schoolProducts)
      .values([{ schoolId: school.id, title: 'Parent' }, { schoolId: school.id, title: 'Sibling' }])
      .returning();
    await service.db.insert(schoolProductTopics).values({ schoolId: school.id, schoolProductId: sibling.id, title: 'Elsewhere', description: 'd' });
    const ctx = await contextOf(service, school.admin);
    const created: any = await topicsResolver.createOne(String(product.id), { title: 'Topic', description: 'About it' }, ctx);
    expect(created.schoolProductTopic).toMatchObject({ schoolId: school.id, schoolProductId: product.id, title: 'Topic' });
    const page: any = await topicsResolver.listAll(String(product.id), { first: 10 }, ctx);
    expect(page.nodes.map((t: any) => t.title)).toEqual(['Topic']);
  });

  it("given another school's parent or none, then the parent's 404, and nothing is written", async () => {
    const [foreign] = await service.db.insert(schoolProducts).values({ schoolId: other.id, title: 'Foreign parent' }).returning();
    const ctx = await contextOf(service, school.admin);
    const before = await countRows(service, schoolProductTopics);
    for (const id of [String(foreign.id), '999999']) {
      await expect(topicsResolver.createOne(id, { title: 'Topic', description: 'd' }, ctx)).rejects.toMatchObject({ code: 'not_found', message: 'SchoolProduct not found' });
      await expect(topicsResolver.listAll(id, { first: 10 }, ctx)).rejects.toMatchObject({ code: 'not_found', message: 'SchoolProduct not found' });
    }
    expect(await countRows(service, schoolProductTopics)).toBe(before);
  });
});
