import { asc, count, eq } from 'drizzle-orm';
import { categories, libraryResources } from '../../src/modules/library/library.table.js';
import { media } from '../../src/modules/media/media.table.js';
import {
  schoolProductCategories,
  schoolProductClassTeachers,
  schoolProductGalleryMedia,
  schoolProducts,
  schoolProductTopics,
} from '../../src/modules/school-products/school-product.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { expect } from 'vitest';
import { fingerprint } from './fingerprint.js';
import { graphql } from './graphql.js';
import type { Client, Service, TestSchool } from './service.js';

/**
 * The school-products family's fixtures, for its REST and GraphQL tests: rows no API creates yet
 * (inserted through drizzle), the reads the tests check, and the family's table fingerprint.
 */
export function schoolProductFixtures(service: () => Service) {
  const db = () => service().db;
  let serial = 0;
  async function person(s: TestSchool, type: 'Collaborator' | 'Student') {
    const n = ++serial;
    const [row] = await db()
      .insert(users)
      .values({ schoolId: s.id, type, fullName: `${type} ${n}`, email: `${type.toLowerCase()}${n}@example.com` })
      .returning();
    return row;
  }
  return {
    person,
    async libraryResource(s: TestSchool) {
      const [row] = await db()
        .insert(libraryResources)
        .values({ schoolId: s.id, libraryId: s.libraryId, title: `Resource ${++serial}` })
        .returning();
      return row;
    },
    async category(s: TestSchool) {
      const [row] = await db().insert(categories).values({ schoolId: s.id, name: `Category ${++serial}` }).returning();
      return row;
    },
    async mediaItem(s: TestSchool) {
      const [row] = await db().insert(media).values({ schoolId: s.id, title: `Media ${++serial}` }).returning();
      return row;
    },
    async studentClient(s: TestSchool): Promise<Client> {
      const student = await person(s, 'Student');
      return service().token('student', s.id, student.id);
    },
    async productRow(id: number | string) {
      const [row] = await db().select().from(schoolProducts).where(eq(schoolProducts.id, Number(id)));
      return row;
    },
    async linksOf(id: number) {
      const cats = await db()
        .select({ id: schoolProductCategories.categoryId })
        .from(schoolProductCategories)
        .where(eq(schoolProductCategories.schoolProductId, id));
      const gallery = await db()
        .select({ id: schoolProductGalleryMedia.mediaId })
        .from(schoolProductGalleryMedia)
        .where(eq(schoolProductGalleryMedia.schoolProductId, id))
        .orderBy(asc(schoolProductGalleryMedia.position));
      const teachers = await db()
        .select({ id: schoolProductClassTeachers.userId })
        .from(schoolProductClassTeachers)
        .where(eq(schoolProductClassTeachers.schoolProductId, id));
      return {
        categoryIds: cats.map((r) => r.id).sort((a, b) => a - b),
        galleryMediaIds: gallery.map((r) => r.id),
        classTeacherIds: teachers.map((r) => r.id).sort((a, b) => a - b),
      };
    },
    async productCount(schoolId: number) {
      const [r] = await db().select({ n: count() }).from(schoolProducts).where(eq(schoolProducts.schoolId, schoolId));
      return Number(r.n);
    },
    /** Every row this family owns, to prove a refused request wrote nothing. */
    snapshot: fingerprint(service, {
      products: schoolProducts,
      topics: schoolProductTopics,
      categories: schoolProductCategories,
      gallery: schoolProductGalleryMedia,
      teachers: schoolProductClassTeachers,
    }),
  };
}

/** `createProduct(fields, client?)`: POST /school_products, expecting 201, through `client` or the admin given here. */
export function productCreator(admin: () => Client) {
  return async function createProduct(fields: Record<string, unknown>, client: Client = admin()) {
    const res = await client.post('/school_products', { school_product: fields });
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
}

// ---------------------------------------------------------------------------------------------
// The GraphQL face's operations.

export const PRODUCT = graphql(`fragment ProductFields on SchoolProduct {
  id schoolId title description published libraryResourceId availableTimeType availableTimeLength
  availableTimeUnit expireDate maxAttendanceType maxAttendanceLength certificationMinProgress categoryIds galleryMediaIds classTeacherIds
}`);

export const CREATE = graphql(
  `mutation Create($input: SchoolProductInput!) {
    createSchoolProduct(input: $input) { schoolProduct { ...ProductFields } errors { field code message } }
  }`,
  [PRODUCT],
);
export const UPDATE = graphql(
  `mutation Update($id: ID!, $input: SchoolProductInput!) {
    updateSchoolProduct(id: $id, input: $input) { schoolProduct { ...ProductFields } errors { field code message } }
  }`,
  [PRODUCT],
);
export const DELETE = graphql(`mutation Delete($id: ID!) {
  deleteSchoolProduct(id: $id) { schoolProduct { id title } errors { field code message } }
}`);
export const SHOW = graphql(`query Show($id: ID!) { schoolProduct(id: $id) { ...ProductFields } }`, [PRODUCT]);

export const CREATE_TOPIC = graphql(`mutation CreateTopic($productId: ID!, $input: SchoolProductTopicInput!) {
  createSchoolProductTopic(schoolProductId: $productId, input: $input) {
    schoolProductTopic { id schoolId schoolProductId title description } errors { field code message }
  }
}`);
export const UPDATE_TOPIC = graphql(`mutation UpdateTopic($id: ID!, $input: SchoolProductTopicInput!) {
  updateSchoolProductTopic(id: $id, input: $input) {
    schoolProductTopic { id schoolProductId title description } errors { field code message }
  }
}`);
export const DELETE_TOPIC = graphql(`mutation DeleteTopic($id: ID!) {
  deleteSchoolProductTopic(id: $id) { schoolProductTopic { id } errors { field code message } }
}`);

/** Creates through the GraphQL face (a product, a topic of one), expecting no error: through `client` or the admin given here. */
export function productGraphqlCreators(admin: () => Client) {
  async function create(input: Record<string, unknown>, client: Client = admin()) {
    const res = await client.graphql(CREATE, { input });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    expect(res.data.createSchoolProduct.errors).toEqual([]);
    return res.data.createSchoolProduct.schoolProduct;
  }
  async function createTopic(productId: string | number, input: Record<string, unknown>, client: Client = admin()) {
    const res = await client.graphql(CREATE_TOPIC, { productId, input: { description: 'About it', ...input } });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    expect(res.data.createSchoolProductTopic.errors).toEqual([]);
    return res.data.createSchoolProductTopic.schoolProductTopic;
  }
  return { create, createTopic };
}

/** A GraphQL execution error of `code`, with no stack trace in it. */
export function expectCode(res: { errors?: any[] }, code: string) {
  expect(res.errors, 'expected a GraphQL error').toBeDefined();
  expect(res.errors![0].extensions.code).toBe(code);
  expect(JSON.stringify(res.errors)).not.toMatch(/stacktrace|\.ts:\d+/);
}
