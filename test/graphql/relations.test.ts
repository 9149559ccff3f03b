import { getMetadataStorage } from 'type-graphql';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/graphql/context.js';
import { categories, libraryResources } from '../../src/modules/library/library.table.js';
import { media } from '../../src/modules/media/media.table.js';
import { MediaResolver } from '../../src/modules/media/media.resolver.js';
import { SchoolProductRelatedResolver } from '../../src/modules/school-products/school-product.resolver.js';
import { schoolProductCategories, schoolProducts, schoolProductTopics } from '../../src/modules/school-products/school-product.table.js';
import { contextOf } from '../support/contexts.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// The relation fields of src/graphql/relations.ts (`RelationFields`, `relationsResolver`), driven
// directly: the field resolvers they add to real resolvers, called as GraphQL calls them (the
// parent row, the context), against the database.

type Row = Record<string, unknown>;
type FieldResolver = (row: Row, ctx: Context) => unknown;
/** A relation field's resolver, as the decorator put it on the resolver's prototype. */
const field = (resolver: { prototype: object }, name: string) => {
  const fn = (resolver.prototype as Record<string, FieldResolver>)[name];
  return (row: Row, ctx: Context) => fn.call(resolver.prototype, row, ctx);
};

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Relations School', 'Other Relations School', (w) => ({ service, school, other } = w));

describe('relationsResolver', () => {
  it('given a type and its relations, then a resolver of that type named after it, with one field resolver a relation', () => {
    expect(SchoolProductRelatedResolver.name).toBe('SchoolProductRelationsResolver');
    const fields = getMetadataStorage()
      .fieldResolvers.filter((f) => f.target === SchoolProductRelatedResolver)
      .map((f) => f.methodName);
    expect(fields.sort()).toEqual(['categories', 'categoryIds', 'classTeacherIds', 'courseIds', 'galleryMedia', 'galleryMediaIds', 'pathIds', 'school', 'topics']);
  });
});

describe('a relation by key', () => {
  it("given rows of several parents, then each loads its related rows by the key column, in one statement for the batch", async () => {
    const products = await service.db
      .insert(schoolProducts)
      .values([1, 2, 3].map((n) => ({ schoolId: school.id, title: `Related ${n}` })))
      .returning();
    await service.db.insert(schoolProductTopics).values([
      { schoolId: school.id, schoolProductId: products[0].id, title: 'T1', description: 'd' },
      { schoolId: school.id, schoolProductId: products[2].id, title: 'T2', description: 'd' },
    ]);
    const ctx = await contextOf(service, school.admin);
    const topics = field(SchoolProductRelatedResolver, 'topics');
    let lists: any[] = [];
    expect(await service.countStatements(async () => (lists = await Promise.all(products.map((p) => topics(p, ctx)))))).toBe(1);
    expect(lists.map((l) => l.map((t: any) => t.title))).toEqual([['T1'], [], ['T2']]);
    const schoolOf = field(SchoolProductRelatedResolver, 'school');
    expect(await schoolOf(products[0], ctx)).toMatchObject({ id: school.id });
  });
});

describe('a nullable relation', () => {
  it('given a null key, then null with no load; given a key, then the related row', async () => {
    const [resource] = await service.db.insert(libraryResources).values({ schoolId: school.id, libraryId: school.libraryId, title: 'Resource' }).returning();
    const [plain, linked] = await service.db
      .insert(media)
      .values([
        { schoolId: school.id, title: 'Plain' },
        { schoolId: school.id, title: 'Linked', libraryResourceId: resource.id },
      ])
      .returning();
    const ctx = await contextOf(service, school.admin);
    const libraryResource = field(MediaResolver, 'libraryResource');
    let none: unknown;
    expect(await service.countStatements(async () => (none = await libraryResource(plain, ctx)))).toBe(0);
    expect(none).toBeNull();
    expect(await libraryResource(linked, ctx)).toMatchObject({ id: resource.id, title: 'Resource' });
  });
});

describe('a relation through a list of ids', () => {
  it('given linked ids, then the rows in link order; a row the context may not see is left out, not null', async () => {
    const [product] = await service.db.insert(schoolProducts).values({ schoolId: school.id, title: 'Through' }).returning();
    const own = await service.db
      .insert(categories)
      .values([1, 2].map((n) => ({ schoolId: school.id, name: `Through ${n}` })))
      .returning();
    const [foreign] = await service.db.insert(categories).values({ schoolId: other.id, name: 'Not visible' }).returning();
    await service.db.insert(schoolProductCategories).values(own.map((c) => ({ schoolId: school.id, schoolProductId: product.id, categoryId: c.id })));
    // A link to another school's category: its foreign key carries the school (sharding by school), so none can be written.
    await expect(service.db.insert(schoolProductCategories).values({ schoolId: school.id, schoolProductId: product.id, categoryId: foreign.id })).rejects.toThrow();
    const ctx = await contextOf(service, school.admin);
    const rows = (await field(SchoolProductRelatedResolver, 'categories')(product, ctx)) as { id: number }[];
    expect(rows.map((r) => r.id)).toEqual(own.map((c) => c.id).sort((a, b) => a - b));
  });
});
