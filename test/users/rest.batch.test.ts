import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { passwordResets } from '../../src/auth/password-reset.table.js';
import { enrollments, registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { mails } from '../../src/modules/mail/mail.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { enrollmentRestFixtures, LATER } from '../support/enrollments.fixtures.js';
import { expectFieldError } from '../support/rest-assertions.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Bulk onboarding, REST face: POST /students/batch, people with their registrations, invitations
// and enrollments in one all-or-nothing call (modules/enrollments/student-batch.resolver.ts).

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Onboarding School', 'Other School', (w) => ({ service, school, other } = w));
const { student, catalogue, expectNoWrite } = enrollmentRestFixtures(world);

let serial = 0;
const person = (fields: Record<string, unknown> = {}) => {
  const n = ++serial;
  return { first_name: `First${n}`, last_name: `Last${n}`, email: `bulk${n}@example.com`, ...fields };
};
const enrollIn = (productId: number) => ({ school_product_id: productId, max_attendance_type: 'indeterminate', available_until: LATER });

describe('POST /students/batch', () => {
  let cat: Awaited<ReturnType<typeof catalogue>>;
  beforeAll(async () => {
    cat = await catalogue(school);
  });

  it('given 1,000 people with enrollments, when posting, then 201 with all of them, registered, enrolled and invited, in a handful of statements', async () => {
    const people = Array.from({ length: 1000 }, (_, i) => person(i % 2 ? { enrollments: [enrollIn(cat.productId)] } : {}));
    let res!: Awaited<ReturnType<typeof school.admin.post>>;
    const statements = await service.countStatements(async () => {
      res = await school.admin.post('/students/batch', { students: people });
    });
    expect(res.status, res.text.slice(0, 500)).toBe(201);
    expect(res.body).toHaveLength(1000);
    expect(res.body.map((s: any) => s.email)).toEqual(people.map((p) => p.email));
    expect(res.body[0].full_name).toBe(`${people[0].first_name} ${people[0].last_name}`);
    const ids = res.body.map((s: any) => s.id);
    const regs = await service.db.select().from(registrations).where(inArray(registrations.studentId, ids));
    expect(regs).toHaveLength(1000);
    const enrolled = await service.db.select().from(enrollments).where(inArray(enrollments.studentId, ids));
    expect(enrolled).toHaveLength(500);
    expect(new Set(enrolled.map((e) => e.schoolProductId))).toEqual(new Set([cat.productId]));
    const invited = await service.db.select({ userId: mails.userId }).from(mails).where(and(eq(mails.kind, 'invitation'), inArray(mails.userId, ids)));
    expect(invited).toHaveLength(1000);
    expect(await service.db.select({ id: passwordResets.id }).from(passwordResets).where(inArray(passwordResets.userId, ids))).toHaveLength(1000);
    // Set-based: the statements do not grow with the people (3,000 would be one per row).
    expect(statements, String(statements)).toBeLessThan(25);
  }, 120_000);

  it('given an invalid person among valid ones, when posting, then 422 naming every item and field, and nothing is written', async () => {
    const res = await expectNoWrite(() =>
      school.admin.post('/students/batch', {
        students: [person(), person({ email: null, first_name: null, last_name: null }), person(), person({ password: 'short', password_confirmation: 'short' })],
      }),
    );
    expect(res.status, res.text).toBe(422);
    expect(res.body.details).toEqual({
      'students[1].full_name': [{ error: 'blank' }],
      'students[1].email': [{ error: 'blank' }],
      'students[3].password': [{ error: 'too_short' }],
    });
  });

  it('given an e-mail twice in the batch, when posting, then 422 naming the later item, nothing written', async () => {
    const twin = person();
    const res = await expectNoWrite(() => school.admin.post('/students/batch', { students: [twin, person(), { ...person(), email: twin.email.toUpperCase() }] }));
    expectFieldError(res, 422, 'students[2].email', 'duplicate');
    expect(res.body.errors['students[2].email'][0]).toMatch(/students\[0\]/);
  });

  it('given an e-mail the school already has, when posting, then 409 naming the item (as POST /students), nothing written; another school may have it', async () => {
    const existing = person();
    expect((await school.admin.post('/students', { user: existing })).status).toBe(201);
    const res = await expectNoWrite(() => school.admin.post('/students/batch', { students: [person(), existing] }));
    expectFieldError(res, 409, 'students[1].email', 'taken');
    expect((await other.admin.post('/students/batch', { students: [existing] })).status).toBe(201);
  });

  it("given an enrollment into another school's product, when posting, then 422 naming the item's enrollment and no person is written", async () => {
    const foreign = await catalogue(other);
    const mine = person({ enrollments: [enrollIn(cat.productId)] });
    const theirs = person({ enrollments: [enrollIn(cat.productId), enrollIn(foreign.productId)] });
    const res = await expectNoWrite(() => school.admin.post('/students/batch', { students: [mine, theirs] }));
    expectFieldError(res, 422, 'students[1].enrollments[1].school_product_id', 'not_found');
    expect(await service.db.select().from(users).where(inArray(users.email, [mine.email, theirs.email]))).toEqual([]);
  });

  it('given a password_confirmation that differs, when posting, then 422 naming the item', async () => {
    const res = await expectNoWrite(() => school.admin.post('/students/batch', { students: [person(), person({ password: 'long-enough-1', password_confirmation: 'other-one-2' })] }));
    expectFieldError(res, 422, 'students[1].password_confirmation', 'invalid');
  });

  it('given more than 1,000 people, when posting, then 413 and nothing written', async () => {
    const res = await expectNoWrite(() => school.admin.post('/students/batch', { students: Array.from({ length: 1001 }, () => person()) }));
    expect(res.status, res.text.slice(0, 300)).toBe(413);
  }, 60_000);

  it('given an empty list, when posting, then 400', async () => {
    expect((await school.admin.post('/students/batch', { students: [] })).status).toBe(400);
  });

  it('given a student credential, when posting, then 403; a collaborator may (as createStudent), and the person is in its school', async () => {
    const p = await student(school);
    expectFieldError(await expectNoWrite(() => p.client.post('/students/batch', { students: [person()] })), 403, 'base', 'forbidden');
    expectFieldError(await expectNoWrite(() => service.anonymous.post('/students/batch', { students: [person()] })), 401, 'base', 'unauthenticated');
    const collaborator = await service.token('collaborator', school.id);
    const res = await collaborator.post('/students/batch', { students: [person()] });
    expect(res.status, res.text).toBe(201);
    expect(res.body[0].school_id).toBe(school.id);
  });

  it('given a password from a collaborator, when posting, then 403 naming the item (passwords are set by the person or an admin)', async () => {
    const collaborator = await service.token('collaborator', school.id);
    const res = await expectNoWrite(() => collaborator.post('/students/batch', { students: [person(), person({ password: 'long-enough-1' })] }));
    expectFieldError(res, 403, 'students[1].password', 'forbidden');
  });
});

describe('POST /students/batch as CSV', () => {
  let cat: Awaited<ReturnType<typeof catalogue>>;
  beforeAll(async () => {
    cat = await catalogue(school);
  });
  const postCsv = (raw: string, url = '/students/batch') => school.admin.request('POST', url, undefined, { raw, headers: { 'content-type': 'text/csv; charset=utf-8' } });
  const line = (fields: string[]) => fields.map((f) => (/[",\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',');

  it('given a header row and 1,000 lines, some with a product, when posting, then 201 with every person, registered and enrolled', async () => {
    const people = Array.from({ length: 1000 }, () => person());
    const rows = people.map((p, i) => line([p.first_name, i === 0 ? 'de Souza, Jr.' : p.last_name, p.email, i % 2 ? String(cat.productId) : '']));
    const res = await postCsv(`\ufeffFirst_Name,last_name,email,school_product_id\r\n${rows.join('\r\n')}\r\n`);
    expect(res.status, res.text.slice(0, 500)).toBe(201);
    expect(res.body.map((s: any) => s.email)).toEqual(people.map((p) => p.email));
    expect(res.body[0].full_name).toBe(`${people[0].first_name} de Souza, Jr.`);
    const ids = res.body.map((s: any) => s.id);
    expect(await service.db.select().from(registrations).where(inArray(registrations.studentId, ids))).toHaveLength(1000);
    expect(await service.db.select().from(enrollments).where(inArray(enrollments.studentId, ids))).toHaveLength(500);
  }, 120_000);

  it('given ?dry_run=true, when posting a valid CSV, then 200 with the people as they would be, and nothing written', async () => {
    const p = person();
    const res = await expectNoWrite(() => postCsv(`first_name,last_name,email\n${line([p.first_name, p.last_name, p.email])}\n`, '/students/batch?dry_run=true'));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toMatchObject([{ email: p.email, full_name: `${p.first_name} ${p.last_name}` }]);
    expect(await service.db.select().from(users).where(eq(users.email, p.email))).toEqual([]);
    // Any spelling of the flag is a dry run: none writes.
    const json = await expectNoWrite(() => school.admin.post('/students/batch?dry_run=1', { students: [p] }));
    expect(json.status, json.text).toBe(200);
  });

  it('given ?dry_run=true and problems, when posting, then the same indexed errors as the real call, nothing written', async () => {
    const p = person();
    const foreign = await catalogue(other);
    const csv = `first_name,email,school_product_id\n${line([p.first_name, p.email, String(foreign.productId)])}\n${line(['No mail', '', ''])}\n`;
    const res = await expectNoWrite(() => postCsv(csv, '/students/batch?dry_run=true'));
    expectFieldError(res, 422, 'students[1].email', 'blank');
    const products = await expectNoWrite(() => postCsv(`first_name,email,school_product_id\n${line([p.first_name, p.email, String(foreign.productId)])}\n`, '/students/batch?dry_run=true'));
    expectFieldError(products, 422, 'students[0].enrollments[0].school_product_id', 'not_found');
  });

  it('given a malformed CSV, when posting, then 400 and nothing written', async () => {
    const res = await expectNoWrite(() => postCsv('first_name,email\n"unclosed,a@example.com\n'));
    expect(res.status, res.text).toBe(400);
  });

  it('given more than 1,000 lines, when posting, then 413 and nothing written', async () => {
    const rows = Array.from({ length: 1005 }, () => person()).map((p) => line([p.first_name, p.email]));
    const res = await expectNoWrite(() => postCsv(`first_name,email\n${rows.join('\n')}\n`));
    expect(res.status, res.text).toBe(413);
  });

  it('given text/csv on another route, when posting, then 415 as before', async () => {
    const res = await school.admin.request('POST', '/enrollments/batch', undefined, { raw: 'a,b\n1,2\n', headers: { 'content-type': 'text/csv' } });
    expect(res.status, res.text).toBe(415);
  });
});

