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
import { fingerprint } from './fingerprint.js';
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
