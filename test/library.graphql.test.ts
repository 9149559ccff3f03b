import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { categories, hostCredentials, images, libraries, libraryResources } from '../src/modules/library/library.table.js';
import { schoolProducts } from '../src/modules/school-products/school-product.table.js';
import { errorCodes, ids, libraryFixtures } from './support/library.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { graphql } from './support/graphql.js';
import { twoSchools } from './support/world.js';

// GraphQL face of Library, LibraryResource, Image and Category: create/update/delete with their
// rules, tenancy, and batched field resolvers. Libraries and their resources are read by staff only
// (a student is FORBIDDEN); images and categories by any role of the school; writes by authors
// (platform, admin, collaborator: an app or a student is FORBIDDEN).

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: ReturnType<typeof libraryFixtures>;
let student: Client;
let collaborator: Client;

twoSchools('GraphQL Library', 'GraphQL Library Other', async (w) => {
  ({ service, school, other } = w);
  f = libraryFixtures(service);
  student = await f.as(school, 'student');
  collaborator = await f.as(school, 'collaborator');
});

const ERR = 'errors { field code message }';
const fieldCodes = (errors: { field: string[]; code: string }[]) => errors.map((e) => [e.field.join('.'), e.code]);

async function mutation(client: Client, name: string, args: string, vars: Record<string, unknown>, fields: string) {
  const decl = Object.keys(vars)
    .map((k) => `$${k}: ${k === 'input' ? `${name.replace(/^(create|update|delete)/, '')}Input!` : 'ID!'}`)
    .join(', ');
  const res = await client.graphql(`mutation (${decl}) { ${name}(${args}) { ${fields} ${ERR} } }`, vars);
  return { res, payload: res.data?.[name] };
}

describe('Library', () => {
  const FIELDS = 'library { id schoolId name }';
  const create = (client: Client, input: Record<string, unknown>) => mutation(client, 'createLibrary', 'input: $input', { input }, FIELDS);

  it('given a name, then createLibrary creates one in the caller school; no name is blank', async () => {
    const { payload } = await create(school.admin, { name: '  Video vault  ' });
    expect(payload).toMatchObject({ errors: [], library: { schoolId: String(school.id), name: 'Video vault' } });
    const bad = await create(school.admin, { name: ' ' });
    expect(bad.payload).toEqual({ library: null, errors: [{ field: ['name'], code: 'blank', message: "can't be blank" }] });
  });

  it('updateLibrary renames, refuses a cleared name, and another school’s is NOT_FOUND', async () => {
    const { payload } = await create(school.admin, { name: 'Before' });
    const id = payload.library.id;
    const renamed = await mutation(school.admin, 'updateLibrary', 'id: $id, input: $input', { id, input: { name: 'After' } }, FIELDS);
    expect(renamed.payload).toMatchObject({ errors: [], library: { id, name: 'After' } });
    const cleared = await mutation(school.admin, 'updateLibrary', 'id: $id, input: $input', { id, input: { name: null } }, FIELDS);
    expect(fieldCodes(cleared.payload.errors)).toEqual([['name', 'blank']]);
    const foreign = await mutation(school.admin, 'updateLibrary', 'id: $id, input: $input', { id: other.libraryId, input: { name: 'x' } }, FIELDS);
    expect(errorCodes(foreign.res)).toEqual(['NOT_FOUND']);
    const [theirs] = await service.db.select().from(libraries).where(eq(libraries.id, other.libraryId));
    expect(theirs.name).not.toBe('x');
  });

  it('deleteLibrary deletes it with its resources and host credentials', async () => {
    const library = await f.library(school);
    const [resource] = await service.db.insert(libraryResources).values({ schoolId: school.id, libraryId: library.id, title: 'R' }).returning();
    const [credential] = await service.db.insert(hostCredentials).values({ schoolId: school.id, libraryId: library.id, host: 'h.example.com' }).returning();
    const { payload } = await mutation(school.admin, 'deleteLibrary', 'id: $id', { id: library.id }, 'library { id }');
    expect(payload).toEqual({ library: { id: String(library.id) }, errors: [] });
    expect(await service.db.select().from(libraryResources).where(eq(libraryResources.id, resource.id))).toEqual([]);
    expect(await f.credentialRow(credential.id)).toBeUndefined();
  });

  it('library and libraries show only the caller school; staff reads, a student is FORBIDDEN; authors write, an app may not', async () => {
    const mine = await f.library(school, 'Readable');
    const LIST = graphql(`{ libraries(first: 100) { totalCount nodes { id } } }`);
    const SHOW = graphql(`query ($id: ID!) { library(id: $id) { name } }`);
    const app = await f.as(school, 'app');
    for (const staff of [collaborator, app]) {
      const list = await staff.graphql(LIST);
      expect(ids(list.data.libraries.nodes)).toEqual(expect.arrayContaining([school.libraryId, mine.id]));
      expect(ids(list.data.libraries.nodes)).not.toContain(other.libraryId);
      expect((await staff.graphql(SHOW, { id: mine.id })).data.library.name).toBe('Readable');
    }
    expect(errorCodes(await school.admin.graphql(`query ($id: ID!) { library(id: $id) { id } }`, { id: other.libraryId }))).toEqual(['NOT_FOUND']);
    expect(errorCodes(await student.graphql(LIST))).toEqual(['FORBIDDEN']);
    expect(errorCodes(await student.graphql(SHOW, { id: mine.id }))).toEqual(['FORBIDDEN']);
    const before = await service.db.select().from(libraries);
    expect(errorCodes((await create(student, { name: 'Nope' })).res)).toEqual(['FORBIDDEN']);
    expect(errorCodes((await create(app, { name: 'Nope either' })).res)).toEqual(['FORBIDDEN']);
    expect(await service.db.select().from(libraries)).toEqual(before);
    expect((await create(collaborator, { name: 'Staff may' })).payload.errors).toEqual([]);
  });
});

describe('LibraryResource', () => {
  const FIELDS = 'libraryResource { id schoolId libraryId title kind url library { id } }';
  const create = (client: Client, libraryId: number | string, input: Record<string, unknown>) =>
    mutation(client, 'createLibraryResource', 'libraryId: $libraryId, input: $input', { libraryId, input }, FIELDS);
  const update = (client: Client, id: number | string, input: Record<string, unknown>) =>
    mutation(client, 'updateLibraryResource', 'id: $id, input: $input', { id, input }, FIELDS);

  it('given a title, kind and url, then createLibraryResource adds it to the library', async () => {
    const { payload } = await create(school.admin, school.libraryId, { title: 'Intro video', kind: 'video', url: 'https://cdn.example.com/intro.mp4' });
    expect(payload).toEqual({
      errors: [],
      libraryResource: {
        id: expect.any(String),
        schoolId: String(school.id),
        libraryId: String(school.libraryId),
        title: 'Intro video',
        kind: 'video',
        url: 'https://cdn.example.com/intro.mp4',
        library: { id: String(school.libraryId) },
      },
    });
  });

  it('given no title or a url that is not http(s), then UserErrors and nothing written', async () => {
    const before = await service.db.select().from(libraryResources);
    const { payload } = await create(school.admin, school.libraryId, { url: 'javascript:alert(1)' });
    expect(payload.libraryResource).toBeNull();
    expect(fieldCodes(payload.errors).sort()).toEqual([['title', 'blank'], ['url', 'invalid']]);
    expect(await service.db.select().from(libraryResources)).toEqual(before);
  });

  it("given another school's library, then NOT_FOUND", async () => {
    expect(errorCodes((await create(school.admin, other.libraryId, { title: 'x' })).res)).toEqual(['NOT_FOUND']);
  });

  it("update moves it within the school; another school's library is not_found; a cleared title is blank", async () => {
    const { payload } = await create(school.admin, school.libraryId, { title: 'Movable' });
    const id = payload.libraryResource.id;
    const target = await f.library(school);
    const moved = await update(school.admin, id, { libraryId: target.id, kind: 'pdf', url: null });
    expect(moved.payload).toMatchObject({ errors: [], libraryResource: { libraryId: String(target.id), kind: 'pdf', url: null, library: { id: String(target.id) } } });
    const foreign = await update(school.admin, id, { libraryId: other.libraryId });
    expect(fieldCodes(foreign.payload.errors)).toEqual([['libraryId', 'not_found']]);
    const blank = await update(school.admin, id, { title: '' });
    expect(fieldCodes(blank.payload.errors)).toEqual([['title', 'blank']]);
    const [row] = await service.db.select().from(libraryResources).where(eq(libraryResources.id, Number(id)));
    expect(row).toMatchObject({ libraryId: target.id, title: 'Movable' });
  });

  it('libraryResources lists the school’s, or one library’s, to staff; another school’s library is NOT_FOUND; a student is FORBIDDEN', async () => {
    const library = await f.library(school);
    const a = (await create(school.admin, library.id, { title: 'A' })).payload.libraryResource;
    const theirs = (await create(other.admin, other.libraryId, { title: 'Theirs' })).payload.libraryResource;
    const q = graphql(`query ($libraryId: ID) { libraryResources(libraryId: $libraryId, first: 100) { totalCount nodes { id } } }`);
    const one = graphql(`query ($id: ID!) { libraryResource(id: $id) { id } }`);
    expect(ids((await collaborator.graphql(q, { libraryId: library.id })).data.libraryResources.nodes)).toEqual([Number(a.id)]);
    const all = ids((await collaborator.graphql(q)).data.libraryResources.nodes);
    expect(all).toContain(Number(a.id));
    expect(all).not.toContain(Number(theirs.id));
    expect((await collaborator.graphql(one, { id: a.id })).data.libraryResource).toEqual({ id: a.id });
    expect(errorCodes(await school.admin.graphql(q, { libraryId: other.libraryId }))).toEqual(['NOT_FOUND']);
    expect(errorCodes(await school.admin.graphql(one, { id: theirs.id }))).toEqual(['NOT_FOUND']);
    expect(errorCodes(await student.graphql(q, { libraryId: library.id }))).toEqual(['FORBIDDEN']);
    expect(errorCodes(await student.graphql(q))).toEqual(['FORBIDDEN']);
    expect(errorCodes(await student.graphql(one, { id: a.id }))).toEqual(['FORBIDDEN']);
  });

  it('delete removes it; in use by a product it is in_use; a student may not', async () => {
    const { payload } = await create(school.admin, school.libraryId, { title: 'Used' });
    const id = Number(payload.libraryResource.id);
    await service.db.insert(schoolProducts).values({ schoolId: school.id, title: 'Uses it', libraryResourceId: id });
    const del = (x: Client) => mutation(x, 'deleteLibraryResource', 'id: $id', { id }, 'libraryResource { id }');
    expect(errorCodes((await del(student)).res)).toEqual(['FORBIDDEN']);
    expect(fieldCodes((await del(school.admin)).payload.errors)).toEqual([['', 'in_use']]);
    // Its library cannot go either while the product holds the resource.
    const library = await mutation(school.admin, 'deleteLibrary', 'id: $id', { id: school.libraryId }, 'library { id }');
    expect(library.payload).toEqual({ library: null, errors: [{ field: [], code: 'in_use', message: 'is still in use by other records and cannot be deleted' }] });
    expect(await service.db.select().from(libraries).where(eq(libraries.id, school.libraryId))).toHaveLength(1);
    await service.db.delete(schoolProducts).where(eq(schoolProducts.libraryResourceId, id));
    expect((await del(school.admin)).payload).toEqual({ libraryResource: { id: String(id) }, errors: [] });
  });
});

describe('Image', () => {
  const FIELDS = 'image { id schoolId url title contentType width height }';
  const create = (client: Client, input: Record<string, unknown>) => mutation(client, 'createImage', 'input: $input', { input }, FIELDS);
  const update = (client: Client, id: string, input: Record<string, unknown>) =>
    mutation(client, 'updateImage', 'id: $id, input: $input', { id, input }, FIELDS);

  it('given an http(s) url and positive sizes, then createImage stores it', async () => {
    const { payload } = await create(school.admin, { url: 'https://img.example.com/a.png', title: 'A', contentType: 'image/png', width: 640, height: 480 });
    expect(payload).toMatchObject({
      errors: [],
      image: { schoolId: String(school.id), url: 'https://img.example.com/a.png', title: 'A', contentType: 'image/png', width: 640, height: 480 },
    });
  });

  it.each([
    ['no url', { title: 'x' }, [['url', 'blank']]],
    ['an ftp url', { url: 'ftp://img.example.com/a.png' }, [['url', 'invalid']]],
    ['a relative url', { url: '/a.png' }, [['url', 'invalid']]],
    ['a zero width and a negative height', { url: 'http://x.example.com/a.png', width: 0, height: -3 }, [['width', 'greater_than'], ['height', 'greater_than']]],
  ])('given %s, then UserErrors and nothing written', async (_name, input, expected) => {
    const before = await service.db.select().from(images);
    const { payload } = await create(school.admin, input);
    expect(payload.image).toBeNull();
    expect(fieldCodes(payload.errors)).toEqual(expected);
    expect(await service.db.select().from(images)).toEqual(before);
  });

  it('updates, refuses a cleared url, reads and deletes; another school’s is NOT_FOUND everywhere', async () => {
    const { payload } = await create(school.admin, { url: 'https://img.example.com/b.png' });
    const id = payload.image.id;
    expect((await update(school.admin, id, { width: 10, title: 'B' })).payload.image).toMatchObject({ width: 10, title: 'B', url: 'https://img.example.com/b.png' });
    expect(fieldCodes((await update(school.admin, id, { url: '' })).payload.errors)).toEqual([['url', 'blank']]);
    expect(fieldCodes((await update(school.admin, id, { height: 0 })).payload.errors)).toEqual([['height', 'greater_than']]);
    expect((await student.graphql(`query ($id: ID!) { image(id: $id) { id width } }`, { id })).data.image).toEqual({ id, width: 10 });

    const theirs = (await create(other.admin, { url: 'https://img.example.com/theirs.png' })).payload.image;
    expect(errorCodes(await school.admin.graphql(`query ($id: ID!) { image(id: $id) { id } }`, { id: theirs.id }))).toEqual(['NOT_FOUND']);
    expect(ids((await school.admin.graphql(`{ images(first: 100) { nodes { id } } }`)).data.images.nodes)).not.toContain(Number(theirs.id));
    expect(errorCodes((await update(school.admin, theirs.id, { title: 'x' })).res)).toEqual(['NOT_FOUND']);
    expect(errorCodes((await mutation(school.admin, 'deleteImage', 'id: $id', { id: theirs.id }, 'image { id }')).res)).toEqual(['NOT_FOUND']);

    expect(errorCodes((await update(student, id, { title: 'x' })).res)).toEqual(['FORBIDDEN']);
    const del = await mutation(school.admin, 'deleteImage', 'id: $id', { id }, 'image { id }');
    expect(del.payload).toEqual({ image: { id }, errors: [] });
    expect(await service.db.select().from(images).where(eq(images.id, Number(id)))).toEqual([]);
  });
});

describe('Category', () => {
  const FIELDS = 'category { id schoolId name slug parentId parent { id name } }';
  const create = (client: Client, input: Record<string, unknown>) => mutation(client, 'createCategory', 'input: $input', { input }, FIELDS);
  const update = (client: Client, id: string, input: Record<string, unknown>) =>
    mutation(client, 'updateCategory', 'id: $id, input: $input', { id, input }, FIELDS);
  let serial = 0;
  const slug = () => `topic-${++serial}`;

  it('given a name, a slug and a parent of the school, then createCategory nests it', async () => {
    const parent = (await create(school.admin, { name: 'Design', slug: slug() })).payload.category;
    const { payload } = await create(school.admin, { name: 'Web design', slug: 'web-design', parentId: parent.id });
    expect(payload).toMatchObject({
      errors: [],
      category: { schoolId: String(school.id), name: 'Web design', slug: 'web-design', parentId: parent.id, parent: { id: parent.id, name: 'Design' } },
    });
  });

  it('given no name, a malformed slug or a foreign parent, then UserErrors and nothing written', async () => {
    const foreign = (await create(other.admin, { name: 'Theirs' })).payload.category;
    const before = await service.db.select().from(categories);
    const { payload } = await create(school.admin, { slug: 'Not A Slug', parentId: foreign.id });
    expect(payload.category).toBeNull();
    expect(fieldCodes(payload.errors)).toEqual([['name', 'blank'], ['slug', 'invalid'], ['parentId', 'not_found']]);
    expect(fieldCodes((await create(school.admin, { name: 'x', parentId: 'abc' })).payload.errors)).toEqual([['parentId', 'not_found']]);
    expect(await service.db.select().from(categories)).toEqual(before);
  });

  it('a slug is unique in the school (taken), not across schools', async () => {
    const s = slug();
    expect((await create(school.admin, { name: 'One', slug: s })).payload.errors).toEqual([]);
    const again = await create(school.admin, { name: 'Two', slug: s });
    expect(again.payload).toEqual({ category: null, errors: [{ field: ['slug'], code: 'taken', message: 'has already been taken' }] });
    expect((await create(other.admin, { name: 'Elsewhere', slug: s })).payload.errors).toEqual([]);
    expect((await create(school.admin, { name: 'No slug' })).payload.category.slug).toBeNull();
    expect((await create(school.admin, { name: 'No slug either', slug: '' })).payload.category.slug).toBeNull();
  });

  it('update: the parent may be neither the category itself nor one of its descendants; null makes it top-level', async () => {
    const root = (await create(school.admin, { name: 'Root' })).payload.category;
    const child = (await create(school.admin, { name: 'Child', parentId: root.id })).payload.category;
    const grandchild = (await create(school.admin, { name: 'Grandchild', parentId: child.id })).payload.category;
    const self = await update(school.admin, root.id, { parentId: root.id });
    expect(self.payload.errors).toEqual([{ field: ['parentId'], code: 'invalid', message: "can't be the category itself" }]);
    const loop = await update(school.admin, root.id, { parentId: grandchild.id });
    expect(fieldCodes(loop.payload.errors)).toEqual([['parentId', 'invalid']]);
    const blank = await update(school.admin, root.id, { name: '' });
    expect(fieldCodes(blank.payload.errors)).toEqual([['name', 'blank']]);
    const top = await update(school.admin, grandchild.id, { parentId: null, name: 'Now top' });
    expect(top.payload).toMatchObject({ errors: [], category: { name: 'Now top', parentId: null, parent: null } });
    const reparented = await update(school.admin, root.id, { parentId: grandchild.id });
    expect(reparented.payload).toMatchObject({ errors: [], category: { parent: { id: grandchild.id } } });
  });

  it('delete makes its children top-level; another school’s category is NOT_FOUND; reads by any role', async () => {
    const parent = (await create(school.admin, { name: 'Doomed' })).payload.category;
    const child = (await create(school.admin, { name: 'Orphan', parentId: parent.id })).payload.category;
    expect(errorCodes((await mutation(student, 'deleteCategory', 'id: $id', { id: parent.id }, 'category { id }')).res)).toEqual(['FORBIDDEN']);
    expect((await mutation(collaborator, 'deleteCategory', 'id: $id', { id: parent.id }, 'category { id }')).payload.errors).toEqual([]);
    const read = await student.graphql(`query ($id: ID!) { category(id: $id) { parentId parent { id } } }`, { id: child.id });
    expect(read.data.category).toEqual({ parentId: null, parent: null });

    const theirs = (await create(other.admin, { name: 'Hidden' })).payload.category;
    expect(errorCodes(await school.admin.graphql(`query ($id: ID!) { category(id: $id) { id } }`, { id: theirs.id }))).toEqual(['NOT_FOUND']);
    expect(ids((await student.graphql(`{ categories(first: 100) { nodes { id } } }`)).data.categories.nodes)).not.toContain(Number(theirs.id));
    expect(errorCodes((await update(school.admin, theirs.id, { name: 'x' })).res)).toEqual(['NOT_FOUND']);
  });
});

describe('nested library queries are batched', () => {
  const nested = graphql(`query ($first: Int) { libraries(first: $first) { nodes { id name
    resources { id title library { id name } }
    hostCredentials { id host hasAccessToken } } } }`);

  it('libraries { resources { library } hostCredentials } costs the same statements for 12 libraries as for 1', async () => {
    // Given a school of one library with 2 resources and 2 host credentials
    const counted = await service.school('Batching Library');
    const seed = async (libraryIds: number[]) => {
      await service.db.insert(libraryResources).values(libraryIds.flatMap((libraryId) => [1, 2].map((n) => ({ schoolId: counted.id, libraryId, title: `R${n}` }))));
      await service.db.insert(hostCredentials).values(libraryIds.flatMap((libraryId) => [1, 2].map((n) => ({ schoolId: counted.id, libraryId, host: `h${n}.example.com` }))));
    };
    await seed([counted.libraryId]);
    let small: any;
    const smallCount = await service.countStatements(async () => {
      small = await counted.admin.graphql(nested, { first: 100 });
    });
    expect(small.errors).toBeUndefined();
    expect(small.data.libraries.nodes).toHaveLength(1);
    expect(small.data.libraries.nodes[0].resources).toHaveLength(2);
    expect(small.data.libraries.nodes[0].hostCredentials).toHaveLength(2);

    // When the school has 11 more libraries, each with resources and credentials
    const more = await service.db
      .insert(libraries)
      .values(Array.from({ length: 11 }, (_, i) => ({ schoolId: counted.id, name: `More ${i}` })))
      .returning();
    await seed(more.map((l) => l.id));
    let large: any;
    const largeCount = await service.countStatements(async () => {
      large = await counted.admin.graphql(nested, { first: 100 });
    });

    // Then the statements do not grow with the rows
    expect(large.errors).toBeUndefined();
    expect(large.data.libraries.nodes).toHaveLength(12);
    expect(large.data.libraries.nodes.flatMap((l: any) => l.resources)).toHaveLength(24);
    expect(large.data.libraries.nodes.flatMap((l: any) => l.hostCredentials)).toHaveLength(24);
    expect(large.data.libraries.nodes.every((l: any) => l.resources.every((r: any) => r.library.id === l.id))).toBe(true);
    expect(largeCount).toBe(smallCount);
    // credential, libraries page, resources, resource libraries, host credentials
    expect(largeCount).toBeLessThanOrEqual(5);
  });
});
