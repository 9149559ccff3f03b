import { describe, expect, it } from 'vitest';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';
import { csvRecords, exportFixtures } from '../support/exports.fixtures.js';

// GET /exports/<kind>.csv: the school's rows as RFC 4180 CSV streamed from a cursor, with the filters of
// the matching list; only the caller's school, for the platform and the school's admin.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Export School', 'Other Export School', (w) => ({ service, school, other } = w));
const fx = exportFixtures(() => service);

/** Names a CSV must quote (a comma, a quote, a line break) and accents it must keep. */
const HARD_NAMES = ['Silva, João', 'Ana "Nana" Souza', 'Line\nBreak\r\nTwice', 'Zoë Ñandú Conceição'];

describe('GET /exports/enrollments.csv', () => {
  it('parses back (csv-parse) to the rows written, quoted names and accents included; another school’s rows never appear', async () => {
    const product = await fx.product(school.id, 'Curso de Ação, "Avançado"');
    const written = [];
    for (const name of HARD_NAMES) {
      const student = await fx.student(school.id, name);
      written.push({ student, enrollment: await fx.enroll(school.id, student.id, product.id) });
    }
    const foreign = await fx.student(other.id, 'Other School Person');
    await fx.enroll(other.id, foreign.id, (await fx.product(other.id)).id);

    const res = await school.admin.get(`/exports/enrollments.csv?school_product_id=${product.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="enrollments-${school.id}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    expect(res.text.startsWith('\ufeffid,code,status,student_id,student_name,student_email,')).toBe(true);
    // RFC 4180: records end with CRLF.
    expect(res.text.endsWith('\r\n')).toBe(true);
    const records = csvRecords(res);
    expect(records.map((r) => [r.id, r.student_id, r.student_name, r.student_email, r.school_product_title, r.status, r.unlimited])).toEqual(
      written.map(({ student, enrollment }) => [String(enrollment.id), String(student.id), student.fullName, student.email, product.title, 'active', 'true']),
    );
    expect(records[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(records[0].code).toBe('');

    const all = csvRecords(await school.admin.get('/exports/enrollments.csv'));
    expect(all.some((r) => r.student_name === 'Other School Person')).toBe(false);
    expect(all.every((r) => r.student_email.endsWith(`-${school.id}@example.com`))).toBe(true);
  });

  it('applies the list’s filters: status, student, school product; a product or student of another school is a 404, a status not in the list a 400', async () => {
    const product = await fx.product(school.id);
    const elsewhere = await fx.product(school.id);
    const [a, b] = [await fx.student(school.id, 'Filter A'), await fx.student(school.id, 'Filter B')];
    const active = await fx.enroll(school.id, a.id, product.id, 'active');
    const canceled = await fx.enroll(school.id, b.id, product.id, 'canceled');
    const aElsewhere = await fx.enroll(school.id, a.id, elsewhere.id, 'pending');
    const ids = async (query: string) => csvRecords(await school.admin.get(`/exports/enrollments.csv?${query}`)).map((r) => Number(r.id));

    expect(await ids(`school_product_id=${product.id}`)).toEqual([active.id, canceled.id]);
    expect(await ids(`school_product_id=${product.id}&status=canceled`)).toEqual([canceled.id]);
    expect(await ids(`student_id=${a.id}`)).toEqual([active.id, aElsewhere.id]);
    expect(await ids(`student_id=${a.id}&status=pending`)).toEqual([aElsewhere.id]);

    const foreignProduct = await fx.product(other.id);
    const foreignStudent = await fx.student(other.id, 'Foreign');
    expect((await school.admin.get(`/exports/enrollments.csv?school_product_id=${foreignProduct.id}`)).status).toBe(404);
    expect((await school.admin.get(`/exports/enrollments.csv?student_id=${foreignStudent.id}`)).status).toBe(404);
    const bad = await school.admin.get('/exports/enrollments.csv?status=sleeping');
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.details.status).toBeDefined();
  });

  it('reads a file larger than a batch whole and in id order (the cursor’s fetches, or the embedded database’s keyset pages)', async () => {
    const product = await fx.product(school.id);
    await fx.manyEnrollments(school.id, product.id, 2_345);
    const records = csvRecords(await school.admin.get(`/exports/enrollments.csv?school_product_id=${product.id}`));
    expect(records).toHaveLength(2_345);
    const ids = records.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(2_345);
  });
});

describe('GET /exports/orders.csv', () => {
  it('holds the school’s orders with the orders list’s filters (status, student, created_from, created_to)', async () => {
    const buyer = await fx.student(school.id, 'Comprador, José');
    const other1 = await fx.student(school.id, 'Another Buyer');
    const early = await fx.order(school.id, buyer.id, { status: 'confirmed', createdAt: new Date('2026-01-01T10:00:00Z') });
    const late = await fx.order(school.id, buyer.id, { status: 'initiated', createdAt: new Date('2026-02-01T10:00:00Z') });
    const third = await fx.order(school.id, other1.id, { status: 'confirmed', createdAt: new Date('2026-03-01T10:00:00Z') });
    const foreignBuyer = await fx.student(other.id, 'Foreign Buyer');
    await fx.order(other.id, foreignBuyer.id);

    const res = await school.admin.get('/exports/orders.csv');
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d+-\d{4}-\d{2}-\d{2}\.csv"$/);
    const records = csvRecords(res);
    expect(records.map((r) => Number(r.id))).toEqual([early.id, late.id, third.id]);
    expect(records[0]).toMatchObject({ status: 'confirmed', student_name: 'Comprador, José', total: '1000', amount_to_pay: '900', created_at: '2026-01-01T10:00:00.000Z', test: 'false', confirmed_at: '' });

    const ids = async (query: string) => csvRecords(await school.admin.get(`/exports/orders.csv?${query}`)).map((r) => Number(r.id));
    expect(await ids('status=confirmed')).toEqual([early.id, third.id]);
    expect(await ids(`student_id=${buyer.id}`)).toEqual([early.id, late.id]);
    expect(await ids('created_from=2026-01-15T00:00:00Z&created_to=2026-03-01T10:00:00Z')).toEqual([late.id]);
    expect((await school.admin.get('/exports/orders.csv?status=active')).status).toBe(400);
  });
});

describe('GET /exports/progress.csv', () => {
  it('has a line per enrollment with its progress figures, with the enrollments list’s filters', async () => {
    const product = await fx.product(school.id);
    const student = await fx.student(school.id, 'Progressing Pérez');
    const enrollment = await fx.enroll(school.id, student.id, product.id);
    const res = await school.admin.get(`/exports/progress.csv?school_product_id=${product.id}`);
    expect(res.status, res.text).toBe(200);
    expect(csvRecords(res)).toEqual([
      {
        enrollment_id: String(enrollment.id),
        enrollment_status: 'active',
        student_id: String(student.id),
        student_name: 'Progressing Pérez',
        student_email: student.email,
        school_product_id: String(product.id),
        school_product_title: product.title,
        items_total: '0',
        items_done: '0',
        progress_percent: '0',
        completion_percent: '0',
      },
    ]);
  });
});

describe('who may export', () => {
  it('the platform (naming the school) and the school’s admin; a collaborator, an app and a student are refused (403), no credential 401', async () => {
    const platform = service.platform.forSchool(school.id);
    const person = await fx.student(school.id, 'Student With A Credential');
    const credential = (role: 'collaborator' | 'app' | 'student') => service.token(role, school.id, role === 'student' ? person.id : null);
    for (const kind of ['enrollments', 'orders', 'progress']) {
      expect((await platform.get(`/exports/${kind}.csv`)).status).toBe(200);
      expect((await school.admin.get(`/exports/${kind}.csv`)).status).toBe(200);
      for (const role of ['collaborator', 'app', 'student'] as const) {
        const res = await (await credential(role)).get(`/exports/${kind}.csv`);
        expect(res.status, `${role} ${kind}`).toBe(403);
        expect(res.headers['content-type']).toMatch(/json/);
      }
      expect((await service.anonymous.get(`/exports/${kind}.csv`)).status).toBe(401);
    }
    // An export is of one school: the platform names it.
    expect((await service.platform.get('/exports/enrollments.csv')).status).toBe(400);
  });

  it('the GraphQL exportFile names the file and the path with the filters, for the same roles', async () => {
    const product = await fx.product(school.id);
    const query = 'query ($p: ID) { exportFile(kind: enrollments, schoolProductId: $p, status: "active") { kind filename downloadPath } }';
    const res = await school.admin.graphql(query, { p: String(product.id) });
    expect(res.errors).toBeUndefined();
    expect(res.data.exportFile).toMatchObject({ kind: 'enrollments', downloadPath: `/exports/enrollments.csv?school_product_id=${product.id}&status=active` });
    const student = await service.token('student', school.id, (await fx.student(school.id, 'GraphQL Student')).id);
    expect((await student.graphql(query, { p: String(product.id) })).errors?.[0].extensions.code).toBe('FORBIDDEN');
    const foreign = await fx.product(other.id);
    expect((await school.admin.graphql(query, { p: String(foreign.id) })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    const wrong = await school.admin.graphql('{ exportFile(kind: orders, courseClassId: "1") { filename } }');
    expect(wrong.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: ['courseClassId'] });
  });
});
