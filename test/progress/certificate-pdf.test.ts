import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '../../src/config.js';
import { schools } from '../../src/db/school.table.js';
import { renderCertificatePdf } from '../../src/modules/progress/certificate.pdf.js';
import { users } from '../../src/modules/users/user.table.js';
import { api, fixtures } from '../support/courses.fixtures.js';
import { expectNotFound } from '../support/rest-assertions.js';
import { loggingApp, type Service, type TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// The certificate to print (GET /certificates/:code.pdf): a real PDF of a completed enrollment,
// read back by pdf-lib and by poppler (pdftotext, pdftoppm), its first page kept as
// .test-cache/certificate.png to look at; the public rules of the JSON verification.

let service: Service;
let school: TestSchool;
twoSchools('Escola São João', 'Other Certificate School', (w) => ({ service, school } = w));

/** poppler-utils (Debian's): .ci/run installs it; without it the text and picture checks cannot run. */
const poppler = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!poppler) console.warn('certificate-pdf.test.ts: pdftotext/pdftoppm not found (apt-get install -y poppler-utils): the text and picture checks are skipped');

/** A PNG of one colour, made here: the logo a school keeps in its record as a data: URL. */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

const NAME = 'João da Conceição Muñoz';
const PRODUCT = 'Introdução à Programação';
let code: string;

/** The PDF reply as bytes (the test client reads replies as text). */
const pdfOf = (path: string, app: FastifyInstance = service.app) => app.inject({ method: 'GET', url: path });

beforeAll(async () => {
  // A student completes a certified product's only lesson: the certificate is issued.
  const make = api(school.admin);
  const course = await make.course();
  const lesson = await make.lesson({ course_module_id: (await make.module(course.id)).id });
  const product = await school.admin.post('/school_products', { school_product: { title: PRODUCT, certification: true, certification_min_progress: 100 } });
  expect(product.status, product.text).toBe(201);
  expect((await school.admin.put(`/school_products/${product.body.id}`, { school_product: { course_ids: [course.id] } })).status).toBe(200);
  const [person] = await service.db.insert(users).values({ schoolId: school.id, type: 'Student', fullName: NAME, email: 'joao.pdf@example.com' }).returning();
  const enrollment = await fixtures(service).enrollment(school, product.body.id, { studentId: person.id });
  const done = await enrollment.student.put(`/enrollments/${enrollment.id}/lessons/${lesson.id}/progress`, { progress: { completed: true } });
  expect(done.status, done.text).toBe(200);
  code = (await enrollment.student.get(`/enrollments/${enrollment.id}`)).body.certificate_code;
  expect(code).toMatch(/^[A-Za-z0-9_-]{16}$/);
  // The school keeps its logo in its record (a data: URL): it is printed above its name.
  const logo = `data:image/png;base64,${solidPng(120, 40, [28, 51, 89]).toString('base64')}`;
  await service.db.update(schools).set({ logo }).where(eq(schools.id, school.id));
});

describe('GET /certificates/:code.pdf', () => {
  it('renders the certificate of a completed enrollment as a PDF, with no credential', async () => {
    const res = await pdfOf(`/certificates/${code}.pdf`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="certificate-${code}.pdf"`);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    // The browser's own viewer may draw it (the API's policy would leave Chrome's blank); nothing of the file runs.
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none';object-src 'self';/);
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // A valid document pdf-lib reads back: one A4 landscape page, titled with the person's name.
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([842, 595]);
    expect(doc.getTitle()).toBe(`Certificado de conclusão: ${NAME}`);
    expect(doc.getAuthor()).toBe('Escola São João');
    expect(doc.getKeywords()).toBe(code);
    // The same certificate makes the same bytes (its dates are the certificate's, not the request's).
    expect(Buffer.compare((await pdfOf(`/certificates/${code}.pdf`)).rawPayload, bytes)).toBe(0);
  });

  it.skipIf(!poppler)('holds the name, the product, the school, the date, the code and the verification URL as text, and its first page is kept as a PNG', async () => {
    const res = await pdfOf(`/certificates/${code}.pdf`);
    const dir = mkdtempSync(join(tmpdir(), 'certificate-pdf-'));
    try {
      const file = join(dir, 'certificate.pdf');
      writeFileSync(file, res.rawPayload);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      for (const expected of [
        'ESCOLA SÃO JOÃO',
        'Certificado de conclusão',
        NAME,
        PRODUCT,
        `Código: ${code}`,
        `${config.publicUrl}/certificates/${code}`,
        'Emitido por',
      ])
        expect(text).toContain(expected);
      expect(text).toMatch(/em \d{1,2} de [a-zç]+ de \d{4}/);

      mkdirSync('.test-cache', { recursive: true });
      execFileSync('pdftoppm', ['-png', '-r', '50', '-singlefile', file, join('.test-cache', 'certificate')]);
      const png = readFileSync(join('.test-cache', 'certificate.png'));
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      // 842 x 595 points at 50 dpi (poppler rounds up).
      const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
      expect(Math.abs(w - 585) <= 1 && Math.abs(h - 413) <= 1, `${w} x ${h}`).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!poppler)('prints a letter the standard fonts lack without its accent, else as ?, and never fails on it', async () => {
    const bytes = await renderCertificatePdf({
      code: 'AbC-123_xyzQWERT',
      studentName: 'Łukasz  Őrs Дима',
      productTitle: 'Curso de ñandú e Œuvres',
      issuedAt: new Date('2026-03-01T12:00:00Z'),
      schoolName: 'Escuela',
      schoolLogo: 'data:image/png;base64,bm90IGEgcG5n', // not a PNG: the name alone
      locale: 'es',
      verificationUrl: 'https://example.com/certificates/AbC-123_xyzQWERT',
    });
    const dir = mkdtempSync(join(tmpdir(), 'certificate-pdf-'));
    try {
      writeFileSync(join(dir, 'c.pdf'), bytes);
      const text = execFileSync('pdftotext', [join(dir, 'c.pdf'), '-'], { encoding: 'utf8' });
      for (const expected of ['Certificado de finalización', '?ukasz Ors ????', 'Curso de ñandú e Œuvres', 'el 1 de marzo de 2026', 'Código: AbC-123_xyzQWERT'])
        expect(text).toContain(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers an unknown code 404 in JSON, as the verification does, and keeps the code out of the log', async () => {
    for (const path of ['/certificates/not-a-code.pdf', '/certificates/not-a-code', '/certificates/.pdf']) {
      expectNotFound(await service.anonymous.get(path));
    }
    const lines: string[] = [];
    const app = await loggingApp(service, lines);
    try {
      expect((await pdfOf(`/api/v1/certificates/${code}.pdf`, app)).statusCode).toBe(200);
      const requests = lines.map((line) => JSON.parse(line)).filter((l) => l.req);
      expect(requests.map((l) => l.req.url)).toEqual(['/certificates/[redacted]']);
      expect(lines.join('')).not.toContain(code);
    } finally {
      await app.close();
    }
  });

  it('is made from printableCertificate, which anyone reads by the code: a logo at a remote address is never fetched, only a stored one printed', async () => {
    const query = 'query ($code: String!) { printableCertificate(code: $code) { code studentName productTitle schoolName schoolLogo locale verificationUrl } }';
    const stored = await service.anonymous.graphql(query, { code });
    expect(stored.data.printableCertificate).toMatchObject({
      code,
      studentName: NAME,
      productTitle: PRODUCT,
      schoolName: 'Escola São João',
      schoolLogo: expect.stringMatching(/^data:image\/png;base64,/),
      locale: 'pt-BR',
      verificationUrl: `${config.publicUrl}/certificates/${code}`,
    });
    await service.db.update(schools).set({ logo: 'https://cdn.example.com/logo.png', locale: 'en' }).where(eq(schools.id, school.id));
    try {
      const remote = await service.anonymous.graphql(query, { code });
      expect(remote.data.printableCertificate).toMatchObject({ schoolLogo: null, locale: 'en' });
      const res = await pdfOf(`/certificates/${code}.pdf`);
      expect(res.statusCode).toBe(200);
      expect((await PDFDocument.load(res.rawPayload)).getTitle()).toBe(`Certificate of completion: ${NAME}`);
    } finally {
      await service.db.update(schools).set({ locale: null }).where(eq(schools.id, school.id));
    }
    const unknown = await service.anonymous.graphql(query, { code: 'not-a-code' });
    expect(unknown.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
