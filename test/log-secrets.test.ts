import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/modules/users/user.table.js';
import { isSensitiveName, loggedError, loggedUrl } from '../src/http/logging.js';
import { api, fixtures } from './support/courses.fixtures.js';
import { Client, loggingApp, type Service, startService } from './support/service.js';

// With request logging on, a broad run of requests (credentials good and bad, secrets in bodies and
// query strings, personal data, failing statements) leaves no token, password, hash, secret,
// e-mail or document in any log line.

let service: Service;
let logged: FastifyInstance;
const lines: string[] = [];
/** Every value that must not reach a log line, gathered as the run goes. */
const secrets = new Set<string>();
const keep = <T extends string>(value: T): T => (secrets.add(value), value);
const fresh = (prefix: string) => keep(`${prefix}${randomBytes(8).toString('hex')}`);

beforeAll(async () => {
  service = await startService();
  logged = await loggingApp(service, lines);
});
afterAll(async () => {
  await logged?.close();
  await service?.stop();
});

const as = (token: string | null, headers?: Record<string, string>) => new Client(logged, token, headers);

describe('logs of a broad run', () => {
  it('given requests carrying tokens, passwords, secrets and personal data, then no log line holds any of them', async () => {
    const platform = as(keep(service.platform.token!));

    // A school through the wizard: an admin e-mail and password, an admin token in the reply.
    const adminEmail = keep(`owner-${randomBytes(4).toString('hex')}@aurora.example`);
    const adminPassword = fresh('Wizard-Pass-');
    const wizard = await platform.post('/schools/wizard', { school: { name: 'Aurora Logs', email: adminEmail, password: adminPassword } });
    expect(wizard.status, wizard.text).toBe(201);
    const schoolId: number = wizard.body.school.id;
    const admin = as(keep(wizard.body.admin.credentials));
    const [adminRow] = await service.db.select().from(users).where(eq(users.id, wizard.body.admin.id));
    keep(adminRow.passwordHash!);

    // Secrets written through REST and GraphQL.
    const crmToken = fresh('crm-');
    const videoToken = fresh('video-');
    expect((await admin.put(`/school/${schoolId}`, { school: { crm_token: crmToken, video_access_token: videoToken } })).status).toBe(200);
    const hostToken = fresh('vimeo_pat_');
    const host = await admin.post(`/libraries/${wizard.body.library.id}/host_credentials`, {
      host_credential: { host: 'media.example.com', access_token: hostToken },
    });
    expect(host.status, host.text).toBe(201);
    const gatewaySecret = fresh('sk_live_');
    const gateway = await admin.graphql(
      `mutation($input: GatewayCredentialInput!) { createGatewayCredential(input: $input) { errors { field } } }`,
      { input: { gateway: 'pagarme', secretKey: gatewaySecret, publicKey: fresh('pk_live_') } },
    );
    expect(gateway.errors).toBeUndefined();

    // People with personal data and passwords, one of them too short.
    const studentEmail = keep(`ana.${randomBytes(4).toString('hex')}@students.example`);
    const document = keep(`${100_000_000 + Math.floor(Math.random() * 800_000_000)}-77`);
    const studentPassword = fresh('Student-Pass-');
    const created = await admin.graphql(
      `mutation($input: PersonInput!) { createStudent(input: $input) { student { id } errors { field code } } }`,
      { input: { fullName: 'Ana Souza', email: studentEmail, document, phone: keep('+55 11 99876-5432'), password: studentPassword } },
    );
    expect(created.data.createStudent.errors).toEqual([]);
    const studentId = created.data.createStudent.student.id;
    const short = await admin.graphql(`mutation($input: PersonInput!) { createStudent(input: $input) { errors { code } } }`, {
      input: { fullName: 'Short', email: keep(`short.${randomBytes(3).toString('hex')}@students.example`), password: keep('sh0rt!') },
    });
    expect(short.data.createStudent.errors).toEqual([{ code: 'too_short' }]);
    const student = as(keep((await service.token('student', schoolId, Number(studentId))).token!));
    expect((await student.graphql(`{ student(id: ${studentId}) { id } }`)).errors).toBeUndefined();

    // Wrong and malformed credentials, in every header form.
    for (const header of [`Bearer ${fresh('lp_admin_')}`, `Token token="${fresh('lp_platform_')}"`, `Token token=${fresh('wrong')}`, fresh('Basic ')]) {
      expect((await as(null, { authorization: header }).get('/schools')).status).toBe(401);
    }
    expect((await as(null, { cookie: `session=${fresh('cookie-')}` }).get('/schools')).status).toBe(401);

    // Secrets and personal data in query strings, on REST and GraphQL over GET.
    const queries = [
      `/schools?email=${encodeURIComponent(studentEmail)}&page=1`,
      `/schools?access_token=${fresh('at-')}&api_key=${fresh('ak-')}&password=${fresh('pw-')}&school[crm_token]=${fresh('ct-')}`,
      `/scorm/launch?token=${fresh('launch-')}`,
      `/schools?clientSecret=${fresh('cs-')}&authorization=${fresh('az-')}&credentials=${fresh('cr-')}&code=${fresh('oc-')}`,
      `/graphql?query=${encodeURIComponent(`{ students(email: "${studentEmail}") { totalCount } }`)}`,
      `/graphql?query=${encodeURIComponent('query($e: EmailAddress) { students(email: $e) { totalCount } }')}&variables=${encodeURIComponent(JSON.stringify({ e: adminEmail }))}`,
    ];
    for (const url of queries) await admin.get(url, { headers: { 'apollo-require-preflight': 'true' } });

    // Requests that make a statement fail, or would have: a NUL byte in text fields of both faces.
    await admin.post('/school_products', { school_product: { title: `Leak ${crmToken}\u0000` } });
    await admin.graphql(`mutation($input: PersonInput!) { createStudent(input: $input) { errors { code } } }`, {
      input: { fullName: 'Nul\u0000Byte', email: keep(`nul.${randomBytes(3).toString('hex')}@students.example`), password: fresh('Nul-Pass-') },
    });
    await admin.put(`/school/${schoolId}`, { school: { crm_token: `${fresh('nul-crm-')}\u0000` } });

    // And a statement that fails in the database with secrets among its parameters, logged the
    // way the service logs an unexpected error.
    const failing = await service.db
      .insert(users)
      .values({ schoolId, type: 'Student', fullName: 'Broken\u0000', email: keep(`broken.${randomBytes(3).toString('hex')}@x.example`), passwordHash: adminRow.passwordHash })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failing).toBeTruthy();
    logged.log.error({ err: failing }, 'unexpected error');

    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(40);
    expect(text).toContain('"statusCode":401');
    expect(text).toContain('[redacted]');
    // The failed statement is there, by its SQLSTATE and a message with no value.
    const failure = JSON.parse(lines.at(-1)!);
    expect(failure.msg).toBe('unexpected error');
    expect(JSON.stringify(failure.err)).toMatch(/"code":"22\w{3}"/);

    const leaks = [...secrets].filter((secret) => text.includes(secret) || text.includes(encodeURIComponent(secret)));
    expect(leaks).toEqual([]);
    for (const shape of [/\$argon2/, /scrypt\$/, /lp_(?:platform|admin|student|app|collaborator)_[A-Za-z0-9_-]{8}/, /insert into/i, /params:/, /"authorization"/i, /"cookie"/i]) {
      expect(text).not.toMatch(shape);
    }
  });
});

describe('a certificate verified by its code', () => {
  it('given a certificate verified by its code, then its request line shows the route with the code redacted', async () => {
    // A student completes a certified product's only lesson: the certificate is issued.
    const school = await service.school('Certified Logs');
    const make = api(school.admin);
    const course = await make.course();
    const lesson = await make.lesson({ course_module_id: (await make.module(course.id)).id });
    const product = await school.admin.post('/school_products', { school_product: { title: 'Certified', certification: true, certification_min_progress: 100 } });
    expect((await school.admin.put(`/school_products/${product.body.id}`, { school_product: { course_ids: [course.id] } })).status).toBe(200);
    const enrollment = await fixtures(service).enrollment(school, product.body.id);
    await enrollment.student.put(`/enrollments/${enrollment.id}/lessons/${lesson.id}/progress`, { progress: { completed: true } });
    const code: string = (await enrollment.student.get(`/enrollments/${enrollment.id}`)).body.certificate_code;
    expect(code).toMatch(/^[A-Za-z0-9_-]{16}$/);

    // Anyone verifies it, also through the prefixes and suffix clients put around a route, and
    // with a method the route does not answer.
    const from = lines.length;
    for (const url of [`/certificates/${code}`, `/api/v1/certificates/${code}.json?page=1`, `//certificates/${code}/`]) {
      const verified = await as(null).get(url);
      // A show reads no page: the query parameter is refused (400 unknown_parameter), and its URL logged all the same.
      if (url.includes('?page=')) {
        expect(verified.body.details.page, url).toEqual([{ error: 'unknown_parameter' }]);
        continue;
      }
      expect(verified.status, url).toBe(200);
      expect(verified.body.student_name).toBe('Enrolled');
    }
    expect((await as(null).post(`/certificates/${code}`)).status).toBe(405);
    const requests = lines.slice(from).map((line) => JSON.parse(line)).filter((l) => l.req);
    expect(requests.map((l) => l.req.url)).toEqual([
      '/certificates/[redacted]',
      '/certificates/[redacted]?page=1',
      '/certificates/[redacted]',
      '/certificates/[redacted]',
    ]);
    expect(lines.slice(from).join('')).not.toContain(code);
  });
});

describe('what a log line keeps', () => {
  it('masks every query parameter whose name holds a sensitive word, in any spelling, and leaves the rest', () => {
    for (const name of ['token', 'access_token', 'TOKEN', 'accessToken', 'api_key', 'apiKey', 'client-secret', 'school[crm_token]',
      'integration[settings][api_key]', 'password_confirmation', 'user%5Bpassword%5D', 'Authorization', 'credentials', 'code', 'email', 'variables']) {
      expect(isSensitiveName(name), name).toBe(true);
    }
    for (const name of ['page', 'per_page', 'find_by', 'enrollment_id', 'redirect_uri', 'type', 'keyboard', 'tokens_count']) {
      expect(isSensitiveName(name), name).toBe(false);
    }
    expect(loggedUrl('/schools?page=2&email=a%40b.example&school[crm_token]=abc#f')).toBe('/schools?page=2&email=[redacted]&school[crm_token]=[redacted]#f');
    expect(loggedUrl('/media/12?page=2')).toBe('/media/12?page=2');
    expect(loggedUrl('/x?note=ana%40example.com')).toBe('/x?note=[email]');
  });

  it('masks the path segments its route holds secret, however many slashes stand around them', () => {
    expect(loggedUrl('/certificates/AbC-123_xyz?page=2', [1])).toBe('/certificates/[redacted]?page=2');
    expect(loggedUrl('//certificates//AbC-123_xyz/', [1])).toBe('/certificates/[redacted]');
    expect(loggedUrl('/enrollments/12/lessons/34/progress', [])).toBe('/enrollments/12/lessons/34/progress');
    expect(loggedUrl('/certificates/AbC-123_xyz')).toBe('/certificates/AbC-123_xyz');
  });

  it('logs a failed statement by its SQLSTATE, constraint and a message with no statement, parameter or value', () => {
    const cause = Object.assign(new Error('invalid input syntax for type integer: "s3cr3t"'), {
      code: '22P02',
      detail: 'Key (email)=(ana@example.com) already exists.',
      query: 'insert into users (email) values ($1)',
      parameters: ['ana@example.com'],
      constraint_name: 'users_school_id_email_key',
      table_name: 'users',
    });
    const error = Object.assign(new Error('Failed query: insert into users (email) values ($1)\nparams: ana@example.com'), {
      name: 'DrizzleQueryError',
      query: 'insert into users (email) values ($1)',
      params: ['ana@example.com'],
      cause,
    });
    const out = loggedError(error);
    expect(out).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query',
      cause: { code: '22P02', message: 'invalid input syntax for type integer', constraint: 'users_school_id_email_key', table: 'users' },
    });
    expect(JSON.stringify(out)).not.toMatch(/ana@example|s3cr3t|insert into|\$1/);
    expect(out.stack).toMatch(/^ {4}at /);
  });
});
