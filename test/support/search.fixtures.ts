import { courseModuleLinks, courses, lessons, courseModules } from '../../src/modules/courses/course.table.js';
import { forumQuestions, forumSections } from '../../src/modules/forums/forum.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { fixtures } from './courses.fixtures.js';
import { graphql } from './graphql.js';
import type { Client, Service, TestSchool } from './service.js';

/**
 * The search family's rows, written straight to the tables: in each school a student "João da Silva",
 * courses whose title or only whose description says "Introdução", a released and a drip-locked
 * lesson, and a forum question; `student` is enrolled in the product of the first course.
 */
export async function searchWorld(service: Service, s: TestSchool, tag: string) {
  const f = fixtures(service);
  const db = service.db;
  const [joao] = await db.insert(users).values({ schoolId: s.id, type: 'Student', fullName: `João da Silva ${tag}`, email: `joao.${tag.toLowerCase()}@example.com` }).returning();
  const [maria] = await db.insert(users).values({ schoolId: s.id, type: 'Student', fullName: `Maria Souza ${tag}`, email: `maria.${tag.toLowerCase()}@example.com` }).returning();
  const [titled, described, unrelated] = await db
    .insert(courses)
    .values([
      { schoolId: s.id, name: `Introdução à Química ${tag}`, description: 'Átomos e moléculas' },
      { schoolId: s.id, name: `Biologia ${tag}`, description: 'Uma breve INTRODUÇÃO às células' },
      { schoolId: s.id, name: `Física ${tag}`, description: 'Movimento' },
    ])
    .returning();
  const [module] = await db.insert(courseModules).values({ schoolId: s.id, name: 'Módulo 1' }).returning();
  await db.insert(courseModuleLinks).values({ schoolId: s.id, courseId: titled.id, courseModuleId: module.id, position: 0 });
  const [released, locked] = await db
    .insert(lessons)
    .values([
      { schoolId: s.id, courseModuleId: module.id, position: 0, title: `Introdução aos átomos ${tag}`, type: 'Video', description: '<p>Prótons e <b>elétrons</b></p>' },
      { schoolId: s.id, courseModuleId: module.id, position: 1, title: `Lição trancada ${tag}`, type: 'Video', description: 'Outra introdução', releaseAfter: 10 },
    ])
    .returning();
  const [section] = await db.insert(forumSections).values({ schoolId: s.id, forumId: s.forumId, title: 'Geral', sequence: 0 }).returning();
  const [question] = await db
    .insert(forumQuestions)
    .values({ schoolId: s.id, forumSectionId: section.id, title: `Dúvida sobre a introdução ${tag}`, description: 'Não entendi' })
    .returning();
  const product = await f.product(s);
  await f.offer(product.id, [titled.id]);
  const enrolled = await f.enrollment(s, product.id);
  return { joao, maria, titled, described, unrelated, released, locked, question, student: enrolled.student as Client };
}

export const searchQuery = graphql(`
  query ($text: String!, $types: [SearchType!], $first: Int, $after: String, $page: Int, $perPage: Int) {
    search(text: $text, types: $types, first: $first, after: $after, page: $page, perPage: $perPage) {
      totalCount
      nodes { type id title excerpt score }
      edges { cursor node { id } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);

/** The hits of a search as `type:id` keys, best first (failing the test on any error). */
export async function hitsOf(client: Client, text: string, variables: Record<string, unknown> = {}) {
  const res = await client.graphql(searchQuery, { text, ...variables });
  if (res.errors) throw new Error(JSON.stringify(res.errors));
  return res.data.search;
}

export const keyOf = (hit: { type: string; id: string | number }) => `${hit.type}:${hit.id}`;
