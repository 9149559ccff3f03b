/**
 * The benchmark's data set, written with bulk SQL (`insert … select … from generate_series`) on a
 * migrated, empty database. Ids are explicit so the shape is known without reading it back:
 *
 * - 20 schools (all active), 20 products each (400), 200 courses each (4,000); product p links the
 *   10 courses (p-1)*10+1 … p*10 (every course in exactly one product).
 * - 20,000 modules, 100,000 lessons (5 a module). The courses of school 1's first 10 products
 *   (courses 1–100) have 2 modules each, so S3 (school 1 → 10 products → courses → modules →
 *   lessons) reads exactly 1,000 lessons; the other 3,900 courses share the other 19,800 modules.
 * - 1,250 students a school (25,000), one registration each; 50,000 enrollments, 2,500 a school:
 *   a school's first product holds every fifth (500: S4 reads page 3 of 50), the others the rest,
 *   so the first 50 enrollments of school 1 (S5) have 50 students and 12 products.
 * - For the writes: school 2 has `pool` more students with a registration each (createEnrollment
 *   takes the next one per request); school 3 has 3 payment options, a gateway credential and 3 × `pool`
 *   single-use coupon tokens (the order import's items take the next three per request).
 */
import type { Sql } from 'postgres';

export const SCHOOLS = 20;
export const PRODUCTS_PER_SCHOOL = 20;
export const COURSES_PER_SCHOOL = 200;
export const MODULES = 20_000;
export const LESSONS = 100_000;
export const STUDENTS_PER_SCHOOL = 1_250;
export const ENROLLMENTS_PER_SCHOOL = 2_500;

/** What the scenarios read and write (ids in the seeded data). */
export interface Fixture {
  readSchoolId: number;
  /** S2: a course of the read school. */
  courseId: number;
  /** S4: a product of the read school with 500 enrollments. */
  enrollmentsProductId: number;
  /** createEnrollment: the school, a product of it, and its pool of fresh registrations. */
  writeSchoolId: number;
  writeProductId: number;
  registrationPool: { first: number; count: number };
  /** The order import: its school, a student, 3 payment options and a gateway credential. */
  importSchoolId: number;
  importStudentId: number;
  paymentOptionIds: number[];
  /** Single-use coupon tokens, ids first … first + count - 1: each imported order's items take the next three. */
  couponTokenPool: { first: number; count: number };
  gatewayCredentialId: number;
  counts: Record<string, number>;
}

export async function seed(sql: Sql, pool: number): Promise<Fixture> {
  const students = SCHOOLS * STUDENTS_PER_SCHOOL;
  const s3Courses = 10 * 10; // school 1's first 10 products × 10 courses
  const s3Modules = s3Courses * 2;
  const s3Lessons = s3Modules * 5;
  await sql.begin(async (tx) => {
    await tx.unsafe(`
      insert into schools (id, name, subdomain, status, email, phone, site, company_name, seo_title, seo_description, metadata)
      select i, 'Bench School ' || i, 'bench-' || i, 'active', 'school' || i || '@bench.example', '+55 11 5555-' || lpad(i::text, 4, '0'),
             'https://bench-' || i || '.example', 'Bench Company ' || i, 'Bench School ' || i, 'A school of the benchmark', '{"plan":"bench"}'::jsonb
      from generate_series(1, ${SCHOOLS}) i`);
    await tx.unsafe(`
      insert into school_products (id, school_id, title, description, subtitle, published)
      select p, (p - 1) / ${PRODUCTS_PER_SCHOOL} + 1, 'Product ' || p, 'The description of product ' || p, 'Subtitle ' || p, true
      from generate_series(1, ${SCHOOLS * PRODUCTS_PER_SCHOOL}) p`);
    await tx.unsafe(`
      insert into courses (id, school_id, name, description, image_url, duration, code, ready)
      select c, (c - 1) / ${COURSES_PER_SCHOOL} + 1, 'Course ' || c, 'The description of course ' || c,
             'https://cdn.bench.example/courses/' || c || '.png', 60 + c % 120, 'C-' || c, true
      from generate_series(1, ${SCHOOLS * COURSES_PER_SCHOOL}) c`);
    await tx.unsafe(`
      insert into school_product_courses (school_id, school_product_id, course_id, position)
      select sp.school_id, p, (p - 1) * 10 + j, j
      from generate_series(1, ${SCHOOLS * PRODUCTS_PER_SCHOOL}) p join school_products sp on sp.id = p, generate_series(1, 10) j`);
    // Module m's course: 1–100 take 2 each, the rest round-robin over courses 101–4000.
    const courseOfModule = `(case when m <= ${s3Modules} then (m - 1) / 2 + 1 else ${s3Courses + 1} + (m - ${s3Modules + 1}) % ${SCHOOLS * COURSES_PER_SCHOOL - s3Courses} end)`;
    await tx.unsafe(`
      insert into course_modules (id, school_id, name, description)
      select m, (${courseOfModule} - 1) / ${COURSES_PER_SCHOOL} + 1, 'Module ' || m, 'The description of module ' || m
      from generate_series(1, ${MODULES}) m`);
    await tx.unsafe(`
      insert into course_module_links (school_id, course_id, course_module_id, position)
      select c.school_id, c.id, m, m from generate_series(1, ${MODULES}) m join courses c on c.id = ${courseOfModule}`);
    // Lesson l's module: 1–1000 in modules 1–200, the rest 5 a module in 201–20000.
    await tx.unsafe(`
      insert into lessons (id, school_id, course_module_id, position, title, type, description, available)
      select l, cm.school_id, cm.id, (l - 1) % 5, 'Lesson ' || l, 'Text', 'The description of lesson ' || l, true
      from generate_series(1, ${LESSONS}) l
      join course_modules cm on cm.id = case when l <= ${s3Lessons} then (l - 1) / 5 + 1 else ${s3Modules + 1} + (l - ${s3Lessons + 1}) / 5 end`);
    await tx.unsafe(`
      insert into users (id, school_id, type, full_name, email, document, phone)
      select u, (u - 1) / ${STUDENTS_PER_SCHOOL} + 1, 'Student', 'Student ' || u, 'student' || u || '@bench.example', lpad(u::text, 11, '0'), '+55 11 9' || lpad(u::text, 8, '0')
      from generate_series(1, ${students}) u`);
    await tx.unsafe(`
      insert into registrations (id, school_id, student_id)
      select u, (u - 1) / ${STUDENTS_PER_SCHOOL} + 1, u from generate_series(1, ${students}) u`);
    await tx.unsafe(`
      insert into enrollments (id, school_id, registration_id, student_id, school_product_id, max_attendance_type, status, activated_at, unlimited, time_spent)
      select e, s, st, st, (s - 1) * ${PRODUCTS_PER_SCHOOL} + (case when i % 5 = 0 then 0 else 1 + i % ${PRODUCTS_PER_SCHOOL - 1} end) + 1,
             'indeterminate', 'active', now() - interval '30 days', true, i % 3600
      from generate_series(1, ${SCHOOLS * ENROLLMENTS_PER_SCHOOL}) e,
           lateral (select (e - 1) / ${ENROLLMENTS_PER_SCHOOL} + 1 as s, (e - 1) % ${ENROLLMENTS_PER_SCHOOL} as i) x,
           lateral (select (s - 1) * ${STUDENTS_PER_SCHOOL} + i % ${STUDENTS_PER_SCHOOL} + 1 as st) y`);
    // The createEnrollment pool: students and registrations of school 2.
    await tx.unsafe(`
      insert into users (id, school_id, type, full_name, email)
      select u, 2, 'Student', 'Pool student ' || u, 'pool' || u || '@bench.example' from generate_series(${students + 1}, ${students + pool}) u`);
    await tx.unsafe(`insert into registrations (id, school_id, student_id) select u, 2, u from generate_series(${students + 1}, ${students + pool}) u`);
    await tx.unsafe(`
      insert into payment_options (id, school_id, school_product_id, name, price, installments_max)
      select o, 3, ${2 * PRODUCTS_PER_SCHOOL + 1}, 'Option ' || o, 10000 * o, 12 from generate_series(1, 3) o`);
    await tx.unsafe(`insert into gateway_credentials (id, school_id, gateway, name) values (1, 3, 'pagarme', 'Bench gateway')`);
    // Items name a coupon token (the import requires one), and a token is single-use: a pool of them.
    await tx.unsafe(`insert into coupons (id, school_id, code, discount_percent) values (1, 3, 'BENCH', 0)`);
    await tx.unsafe(`insert into coupon_tokens (id, school_id, coupon_id, token) select t, 3, 1, 'BENCH-' || t from generate_series(1, ${3 * pool}) t`);
    // Explicit ids leave the identity sequences behind: move them past the rows.
    for (const table of ['schools', 'school_products', 'courses', 'course_modules', 'lessons', 'users', 'registrations', 'enrollments', 'payment_options', 'gateway_credentials', 'coupons', 'coupon_tokens']) {
      await tx.unsafe(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
    }
  });
  // Vacuumed as well as analyzed: freshly inserted tables otherwise call autovacuum a minute later,
  // in the middle of the measured start-ups and rounds (and their visibility maps are left unset).
  await sql.unsafe('vacuum (analyze)');
  const counts: Record<string, number> = {};
  for (const table of ['schools', 'school_products', 'courses', 'course_modules', 'lessons', 'users', 'registrations', 'enrollments']) {
    const [row] = await sql.unsafe(`select count(*)::int as n from ${table}`);
    counts[table] = row.n as number;
  }
  return {
    readSchoolId: 1,
    courseId: 1,
    enrollmentsProductId: 1,
    writeSchoolId: 2,
    writeProductId: PRODUCTS_PER_SCHOOL + 1,
    registrationPool: { first: students + 1, count: pool },
    importSchoolId: 3,
    importStudentId: 2 * STUDENTS_PER_SCHOOL + 1,
    paymentOptionIds: [1, 2, 3],
    couponTokenPool: { first: 1, count: 3 * pool },
    gatewayCredentialId: 1,
    counts,
  };
}
