/**
 * The benchmark's physical limit: the same scenarios answered by node:http + postgres.js with
 * hand-written SQL, no GraphQL, no ORM, no framework. It authenticates every request the way the
 * service does (the token's digest, one statement, no cache) and answers the same JSON shapes
 * (test/bench/run.ts compares them before measuring). GraphQL documents are recognised by their
 * text (test/bench/scenarios.ts); anything else is a 400. Started by run.ts as its own process:
 * `node --import tsx test/bench/bare.ts` with DATABASE_URL and PORT.
 *
 * Statements are postgres.js's default: named prepared statements, batches as `= any($1)`.
 */
import { createHash } from 'node:crypto';
import cluster from 'node:cluster';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import postgres from 'postgres';
import { ENROLL, S1, S2, S3, S5 } from './scenarios.js';

const sql = postgres(process.env.DATABASE_URL!, { max: Number(process.env.DATABASE_POOL_SIZE || 10), onnotice: () => {} });

interface Caller {
  role: string;
  schoolId: number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function caller(req: IncomingMessage): Promise<Caller> {
  const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!token) throw new HttpError(401, 'unauthenticated');
  const digest = createHash('sha256').update(token, 'utf8').digest('hex');
  const [row] = await sql`
    select t.role, t.school_id, s.status from api_tokens t left join schools s on s.id = t.school_id
    where t.token_digest = ${digest} and t.revoked_at is null limit 1`;
  if (!row || row.school_id === null) throw new HttpError(401, 'unauthenticated');
  if (row.status !== 'active' && row.status !== 'trial') throw new HttpError(403, 'forbidden');
  return { role: row.role, schoolId: row.school_id };
}

async function body(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function reply(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

// ---------------------------------------------------------------------------------------------
// GraphQL documents

const gid = (id: number | null) => (id === null ? null : String(id));

async function course(who: Caller, id: number) {
  const [c] = await sql`
    select id, school_id, name, description, image_url, duration, code, ready, created_at, updated_at
    from courses where id = ${id} and school_id = ${who.schoolId}`;
  if (!c) throw new HttpError(404, 'not found');
  return {
    course: {
      id: gid(c.id),
      schoolId: gid(c.school_id),
      name: c.name,
      description: c.description,
      imageUrl: c.image_url,
      duration: c.duration,
      code: c.code,
      ready: c.ready,
      createdAt: c.created_at,
      updatedAt: c.updated_at,
    },
  };
}

async function tree(who: Caller, schoolId: number) {
  if (schoolId !== who.schoolId) throw new HttpError(404, 'not found');
  const [school] = await sql`select id, name from schools where id = ${schoolId}`;
  const products = await sql`select id, title from school_products where school_id = ${schoolId} order by id limit 10`;
  const courses = await sql`
    select pc.school_product_id, c.id, c.name from school_product_courses pc join courses c on c.id = pc.course_id
    where pc.school_product_id = any(${products.map((p) => p.id)}::int[]) order by pc.school_product_id, pc.position, c.id`;
  const modules = await sql`
    select l.course_id, m.id, m.name from course_module_links l join course_modules m on m.id = l.course_module_id
    where l.course_id = any(${[...new Set(courses.map((c) => c.id))]}::int[]) order by l.course_id, l.position, m.id`;
  const lessons = await sql`
    select course_module_id, id, title, type, position from lessons
    where course_module_id = any(${[...new Set(modules.map((m) => m.id))]}::int[]) order by course_module_id, position, id`;
  const group = <T>(rows: T[], key: (row: T) => number) => {
    const map = new Map<number, T[]>();
    for (const row of rows) {
      const list = map.get(key(row));
      if (list) list.push(row);
      else map.set(key(row), [row]);
    }
    return map;
  };
  const lessonsOf = group(lessons, (l) => l.course_module_id);
  const modulesOf = group(modules, (m) => m.course_id);
  const coursesOf = group(courses, (c) => c.school_product_id);
  return {
    school: {
      id: gid(school.id),
      name: school.name,
      schoolProducts: {
        nodes: products.map((p) => ({
          id: gid(p.id),
          title: p.title,
          courses: (coursesOf.get(p.id) ?? []).map((c) => ({
            id: gid(c.id),
            name: c.name,
            modules: (modulesOf.get(c.id) ?? []).map((m) => ({
              id: gid(m.id),
              name: m.name,
              lessons: (lessonsOf.get(m.id) ?? []).map((l) => ({ id: gid(l.id), title: l.title, type: l.type, position: l.position })),
            })),
          })),
        })),
      },
    },
  };
}

async function enrollmentList(who: Caller) {
  const rows = await sql`
    select e.id, e.status, e.created_at, u.id as student_id, u.full_name, u.email, p.id as product_id, p.title
    from enrollments e join users u on u.id = e.student_id join school_products p on p.id = e.school_product_id
    where e.school_id = ${who.schoolId} order by e.id limit 50`;
  return {
    enrollments: {
      nodes: rows.map((r) => ({
        id: gid(r.id),
        status: r.status,
        createdAt: r.created_at,
        student: { id: gid(r.student_id), fullName: r.full_name, email: r.email },
        schoolProduct: { id: gid(r.product_id), title: r.title },
      })),
    },
  };
}

async function createEnrollment(who: Caller, input: Record<string, any>) {
  const registrationId = Number(input.registrationId);
  const productId = Number(input.schoolProductId);
  return sql.begin(async (tx) => {
    const [registration] = await tx`select student_id from registrations where id = ${registrationId} and school_id = ${who.schoolId}`;
    const [product] = await tx`select id from school_products where id = ${productId} and school_id = ${who.schoolId}`;
    const errors = [
      ...(registration ? [] : [{ field: ['registrationId'], code: 'not_found', message: 'must exist in this school' }]),
      ...(product ? [] : [{ field: ['schoolProductId'], code: 'not_found', message: 'must exist in this school' }]),
    ];
    if (errors.length) return { createEnrollment: { enrollment: null, errors } };
    const [e] = await tx`
      insert into enrollments (school_id, registration_id, student_id, school_product_id, max_attendance_type, unlimited)
      values (${who.schoolId}, ${registrationId}, ${registration.student_id}, ${productId}, ${input.maxAttendanceType}, ${!!input.unlimited})
      returning id, school_id, registration_id, student_id, school_product_id, status, unlimited, created_at`;
    const payload = { studentId: e.student_id, registrationId: e.registration_id, schoolProductId: e.school_product_id, status: e.status };
    // The outbox row and its NOTIFY, as the service writes them (events/events.ts).
    await tx`
      with inserted as (
        insert into domain_events (school_id, name, subject_type, subject_id, payload)
        values (${who.schoolId}, 'enrollment.created', 'Enrollment', ${e.id}, ${sql.json(payload)})
        returning id, school_id, name, subject_id)
      select pg_notify('domain_events', json_build_object('id', id, 'school_id', school_id, 'name', name, 'subject_id', subject_id)::text) from inserted`;
    return {
      createEnrollment: {
        enrollment: {
          id: gid(e.id),
          schoolId: gid(e.school_id),
          registrationId: gid(e.registration_id),
          studentId: gid(e.student_id),
          schoolProductId: gid(e.school_product_id),
          status: e.status,
          unlimited: e.unlimited,
          createdAt: e.created_at,
        },
        errors: [],
      },
    };
  });
}

async function graphql(req: IncomingMessage, res: ServerResponse) {
  const who = await caller(req);
  const { query, variables } = await body(req);
  let data: unknown;
  if (query === S1) data = { __typename: 'Query' };
  else if (query === S2) data = await course(who, Number(variables.id));
  else if (query === S3) data = await tree(who, Number(variables.id));
  else if (query === S5) data = await enrollmentList(who);
  else if (query === ENROLL) data = await createEnrollment(who, variables.input);
  else throw new HttpError(400, 'unknown document');
  reply(res, 200, { data });
}

// ---------------------------------------------------------------------------------------------
// REST

async function restCourse(who: Caller, id: number, res: ServerResponse) {
  const [c] = await sql`
    select c.id, c.school_id, c.name, c.description, c.image_url, c.duration, c.code, c.ready, c.created_at, c.updated_at,
      coalesce((select array_agg(course_module_id order by position, course_module_id) from course_module_links where course_id = c.id), '{}') as course_modules_ids
    from courses c where c.id = ${id} and c.school_id = ${who.schoolId}`;
  if (!c) throw new HttpError(404, 'not found');
  reply(res, 200, c);
}

async function restEnrollments(who: Caller, productId: number, url: URL, res: ServerResponse) {
  const page = Math.max(1, Number(url.searchParams.get('page') || 1));
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') || 10)));
  const [product] = await sql`select id from school_products where id = ${productId} and school_id = ${who.schoolId}`;
  if (!product) throw new HttpError(404, 'not found');
  // The page with each enrollment's certificate code and progress (README "Progress and
  // certificates": released lessons of the product's courses completed, rounded down; the data set
  // has no paths nor activities, so those terms are left out).
  const rows = await sql`
    select e.id, e.school_id, e.registration_id, e.student_id, e.school_product_id, e.max_attendance_type, e.max_attendance_length, e.status,
      e.available_until, e.activated_at, e.unlimited, e.code, e.time_spent, e.created_at, e.updated_at,
      coalesce((select array_agg(course_class_id order by course_class_id) from enrollment_course_classes where enrollment_id = e.id), '{}') as course_class_ids,
      cert.code as certificate_code, progress.percent as progress
    from enrollments e
    left join certificates cert on cert.enrollment_id = e.id
    cross join lateral (
      select coalesce(floor(100.0 * count(lp.id) / nullif(count(*), 0))::int, 0) as percent
      from school_product_courses pc
      join course_module_links cml on cml.course_id = pc.course_id
      join lessons l on l.course_module_id = cml.course_module_id
      left join lesson_progress lp on lp.enrollment_id = e.id and lp.lesson_id = l.id and lp.completed_at is not null
      where pc.school_product_id = e.school_product_id and e.status = 'active' and l.available
        and (l.release_at is null or l.release_at <= now())
        and (l.release_after is null or e.activated_at + make_interval(days => l.release_after) <= now())
    ) progress
    where e.school_product_id = ${productId} and e.school_id = ${who.schoolId}
    order by e.id limit ${perPage} offset ${(page - 1) * perPage}`;
  const [{ total }] = await sql`select count(*)::int as total from enrollments where school_product_id = ${productId} and school_id = ${who.schoolId}`;
  reply(res, 200, rows, { 'x-total-count': String(total) });
}

async function importOrder(who: Caller, req: IncomingMessage, res: ServerResponse) {
  const { order } = await body(req);
  const items: any[] = order.items_attributes ?? [];
  const invoiceInputs: any[] = order.invoices_attributes ?? [];
  const createdAt = order.created_at ? new Date(order.created_at) : new Date();
  const result = await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(${`${who.schoolId}:${order.uuid}`}, 0))`;
    const [existing] = await tx`select id from orders where school_id = ${who.schoolId} and uuid = ${order.uuid}`;
    if (existing) return { status: 200, id: existing.id as number, created: false };
    const tokenIds = [...new Set(items.map((i) => i.coupon_token_id))];
    // The references, one statement for all; the uuids of invoices and payments, one more.
    const [refs] = await tx`
      select
        (select count(*)::int from users where id = ${order.student_id} and school_id = ${who.schoolId} and type = 'Student') as students,
        (select count(*)::int from payment_options where id = any(${items.map((i) => i.payment_option_id)}::int[]) and school_id = ${who.schoolId}) as options,
        (select count(*)::int from gateway_credentials where id = ${order.gateway_credential_id} and school_id = ${who.schoolId}) as gateways,
        (select count(*)::int from coupon_tokens where id = any(${tokenIds}::int[]) and school_id = ${who.schoolId}) as tokens`;
    const invoiceUuids = invoiceInputs.map((i) => i.uuid).filter(Boolean);
    const paymentUuids = invoiceInputs.flatMap((i) => (i.payments_attributes ?? []).map((p: any) => p.uuid)).filter(Boolean);
    const [taken] = await tx`
      select
        (select count(*)::int from invoices where school_id = ${who.schoolId} and uuid = any(${invoiceUuids}::text[])) as invoices,
        (select count(*)::int from payments where school_id = ${who.schoolId} and uuid = any(${paymentUuids}::text[])) as payments`;
    if (refs.students !== 1 || refs.options !== new Set(items.map((i) => i.payment_option_id)).size || refs.gateways !== 1 || refs.tokens !== tokenIds.length)
      return { status: 422 };
    if (taken.invoices || taken.payments) return { status: 409 };
    const [o] = await tx`
      insert into orders (school_id, student_id, gateway_credential_id, uuid, kind, period, status, amount_to_pay, total, confirmed_at,
        gateway_reference, test, success, created_at, updated_at)
      values (${who.schoolId}, ${order.student_id}, ${order.gateway_credential_id}, ${order.uuid}, ${order.kind}, ${order.period}, ${order.status},
        ${order.amount_to_pay}, ${order.total}, ${order.status === 'confirmed' ? createdAt : null}, ${order.gateway_reference}, ${!!order.test},
        ${!!order.success}, ${createdAt}, ${createdAt})
      returning id`;
    const itemRows = await tx`
      insert into order_items (school_id, order_id, payment_option_id, coupon_token_id, quantity, total, amount_to_pay, created_at, updated_at)
      select ${who.schoolId}, ${o.id}, * , ${createdAt}, ${createdAt} from unnest(
        ${items.map((i) => i.payment_option_id)}::int[], ${items.map((i) => i.coupon_token_id)}::int[], ${items.map((i) => i.quantity)}::int[],
        ${items.map((i) => i.total)}::int[], ${items.map((i) => i.amount_to_pay)}::int[])
      returning id`;
    const invoiceRows = await tx`
      insert into invoices (school_id, order_id, amount, occurrence, status, uuid, created_at, updated_at)
      select ${who.schoolId}, ${o.id}, * , ${createdAt}, ${createdAt} from unnest(
        ${invoiceInputs.map((i) => i.amount)}::int[], ${invoiceInputs.map((i) => i.occurrence)}::int[],
        ${invoiceInputs.map((i) => i.status)}::invoice_status[], ${invoiceInputs.map((i) => i.uuid ?? null)}::text[])
      returning id`;
    await tx`update coupon_tokens set used_at = ${createdAt} where id = any(${tokenIds}::int[]) and used_at is null`;
    const payments = invoiceInputs.flatMap((inv, k) => (inv.payments_attributes ?? []).map((p: any) => ({ ...p, invoice_id: invoiceRows[k].id })));
    await tx`
      insert into payments (school_id, invoice_id, kind, status, installments, amount, uuid, success, created_at, updated_at)
      select ${who.schoolId}, * , ${createdAt}, ${createdAt} from unnest(
        ${payments.map((p) => p.invoice_id)}::int[], ${payments.map((p) => Number(p.kind))}::int[],
        ${payments.map((p) => p.status)}::payment_status[], ${payments.map((p) => p.installments ?? null)}::int[],
        ${payments.map((p) => p.amount ?? null)}::int[], ${payments.map((p) => p.uuid ?? null)}::text[], ${payments.map((p) => String(!!p.success))}::text[]::bool[])`;
    return { status: 201, id: o.id as number, created: true, itemIds: itemRows.map((r) => r.id), invoiceIds: invoiceRows.map((r) => r.id) };
  });
  if (result.status >= 400) throw new HttpError(result.status, 'invalid');
  const [o] = await sql`
    select id, school_id, student_id, gateway_credential_id, coupon_id, amount_to_pay, total, kind, period, confirmed_at, next_invoice_at,
      canceled_at, uuid, status, gateway_reference, response, message, test, success, created_at, updated_at
    from orders where id = ${result.id!}`;
  reply(
    res,
    result.status,
    { ...o, item_ids: result.itemIds ?? [], invoice_ids: result.invoiceIds ?? [], created: result.created, dry_run: false },
    { location: `/orders/${o.id}` },
  );
}

// ---------------------------------------------------------------------------------------------

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://bare');
    const path = url.pathname;
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && path === '/readyz') {
      await sql`select 1`;
      return reply(res, 200, { status: 'ready' });
    }
    if (req.method === 'POST' && path === '/graphql') return await graphql(req, res);
    if (req.method === 'GET' && (m = /^\/courses\/(\d+)$/.exec(path))) return await restCourse(await caller(req), Number(m[1]), res);
    if (req.method === 'GET' && (m = /^\/school_products\/(\d+)\/enrollments$/.exec(path)))
      return await restEnrollments(await caller(req), Number(m[1]), url, res);
    if (req.method === 'POST' && path === '/orders/import') return await importOrder(await caller(req), req, res);
    reply(res, 404, { error: 'not found' });
  } catch (error) {
    if (error instanceof HttpError) reply(res, error.status, { error: error.message });
    else {
      console.error(error);
      reply(res, 500, { error: 'internal' });
    }
  }
});

// WEB_CONCURRENCY processes on one port, as the service runs with it (node:cluster).
const processes = Number(process.env.WEB_CONCURRENCY || 1);
if (cluster.isPrimary && processes > 1) {
  for (let i = 0; i < processes; i++) cluster.fork();
  const stopAll = () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    cluster.on('exit', () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0));
  };
  process.on('SIGTERM', stopAll);
  process.on('SIGINT', stopAll);
} else {
  server.listen(Number(process.env.PORT || 4100), process.env.HOST || '127.0.0.1');
  const close = () => server.close(() => void sql.end({ timeout: 5 }).then(() => process.exit(0)));
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
}
