import { describe, expect, it } from 'vitest';
import { person } from '../support/identity.fixtures.js';
import { expectNotFound } from '../support/rest-assertions.js';
import { type Client, type Service, type TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// REST twins of the enrolment and billing resources GraphQL alone served: registrations, payment options,
// coupon tokens, gateway credentials and the order list, each a row onto the GraphQL operation.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Twins Billing', 'Twins Billing Other', (w) => ({ service, school, other } = w));

let serial = 0;
const unique = (prefix: string) => `${prefix}${++serial}${process.pid}`;

async function created(res: Awaited<ReturnType<Client['post']>>, location: string) {
  expect(res.status, res.text).toBe(201);
  expect(res.headers.location).toBe(`${location}/${res.body.id}`);
  return res.body;
}
const product = async (client: Client = school.admin) => created(await client.post('/school_products', { school_product: { title: unique('Product ') } }), '/school_products');
const studentClient = async () => {
  const student = await person(school);
  return { student, client: await service.token('student', school.id, student.id) };
};

describe('registrations', () => {
  it('POST /students/:id/registrations and POST /registrations create; list, the student’s list and show read them', async () => {
    const one = await person(school);
    const two = await person(school);
    const first = await created(await school.admin.post(`/students/${one.id}/registrations`, {}), '/registrations');
    expect(first).toMatchObject({ student_id: one.id, school_id: school.id, status: expect.any(String) });
    const second = await created(await school.admin.post('/v1/registrations.json', { registration: { student_id: two.id } }), '/registrations');
    expect((await school.admin.get(`/registrations/${second.id}`)).body).toMatchObject({ id: second.id, student_id: two.id });
    expect((await school.admin.get(`/students/${one.id}/registrations`)).body.map((r: { id: number }) => r.id)).toEqual([first.id]);
    expect((await school.admin.get(`/registrations?student_id=${two.id}`)).body.map((r: { id: number }) => r.id)).toEqual([second.id]);
    // Registered once: a second is taken (409).
    expect((await school.admin.post(`/students/${one.id}/registrations`, {})).status).toBe(409);
  });

  it('a student reads its own registration only; another school’s is 404', async () => {
    const { student, client } = await studentClient();
    const mine = await created(await school.admin.post(`/students/${student.id}/registrations`, {}), '/registrations');
    const someone = await person(school);
    const theirs = await created(await school.admin.post(`/students/${someone.id}/registrations`, {}), '/registrations');
    expect((await client.get(`/registrations/${mine.id}`)).status).toBe(200);
    expectNotFound(await client.get(`/registrations/${theirs.id}`));
    expect((await client.post('/registrations', { registration: { student_id: student.id } })).status).toBe(403);
    expectNotFound(await other.admin.get(`/registrations/${mine.id}`));
    expectNotFound(await other.admin.post(`/students/${student.id}/registrations`, {}));
  });
});

describe('payment options', () => {
  it('created under the school product or with school_product_id; listed, filtered, shown and updated', async () => {
    const p = await product();
    const nested = await created(await school.admin.post(`/school_products/${p.id}/payment_options`, { payment_option: { name: 'Full', price: 10000 } }), '/payment_options');
    expect(nested).toMatchObject({ school_product_id: p.id, name: 'Full', price: 10000 });
    const flat = await created(await school.admin.post('/payment_options', { payment_option: { name: 'Half', price: 5000, school_product_id: p.id } }), '/payment_options');
    expect((await school.admin.get(`/school_products/${p.id}/payment_options`)).body.map((o: { id: number }) => o.id)).toEqual([nested.id, flat.id]);
    expect((await school.admin.get(`/payment_options?school_product_id=${p.id}`)).body).toHaveLength(2);
    const updated = await school.admin.put(`/payment_options/${flat.id}`, { payment_option: { price: 4500 } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.price).toBe(4500);
  });

  it('a student reads them but may not create; another school’s product is 404', async () => {
    const p = await product();
    const option = await created(await school.admin.post(`/school_products/${p.id}/payment_options`, { payment_option: { name: 'Full', price: 100 } }), '/payment_options');
    const { client } = await studentClient();
    expect((await client.get(`/payment_options/${option.id}`)).status).toBe(200);
    expect((await client.post(`/school_products/${p.id}/payment_options`, { payment_option: { name: 'X', price: 1 } })).status).toBe(403);
    expectNotFound(await other.admin.get(`/payment_options/${option.id}`));
    expectNotFound(await other.admin.get(`/school_products/${p.id}/payment_options`));
    expectNotFound(await other.admin.post(`/school_products/${p.id}/payment_options`, { payment_option: { name: 'X', price: 1 } }));
  });
});

describe('coupon tokens', () => {
  it('GET and POST /coupons/:id/tokens, /coupon_tokens with its filters, show and update', async () => {
    const coupon = await created(await school.admin.post('/coupons', { coupon: { code: unique('TWIN'), discount_percent: 10 } }), '/coupons');
    const token = await created(await school.admin.post(`/coupons/${coupon.id}/tokens`, { coupon_token: { token: unique('T') } }), '/coupon_tokens');
    expect(token).toMatchObject({ coupon_id: coupon.id, used_at: null });
    const flat = await created(await school.admin.post('/coupon_tokens', { coupon_token: { coupon_id: coupon.id, token: unique('T') } }), '/coupon_tokens');
    expect((await school.admin.get(`/coupons/${coupon.id}/tokens`)).body.map((t: { id: number }) => t.id)).toEqual([token.id, flat.id]);
    const used = await school.admin.put(`/coupon_tokens/${flat.id}`, { coupon_token: { used_at: '2026-01-02T03:04:05Z' } });
    expect(used.status, used.text).toBe(200);
    expect((await school.admin.get(`/coupons/${coupon.id}/tokens?used=true`)).body.map((t: { id: number }) => t.id)).toEqual([flat.id]);
    expect((await school.admin.get(`/coupon_tokens?coupon_id=${coupon.id}&used=false`)).body.map((t: { id: number }) => t.id)).toEqual([token.id]);
    expect((await school.admin.get(`/coupon_tokens/${token.id}`)).body.token).toBe(token.token);
  });

  it('a student may not read them (403); another school’s coupon is 404', async () => {
    const coupon = await created(await school.admin.post('/coupons', { coupon: { code: unique('TWIN'), discount_percent: 5 } }), '/coupons');
    const token = await created(await school.admin.post(`/coupons/${coupon.id}/tokens`, { coupon_token: { token: unique('T') } }), '/coupon_tokens');
    const { client } = await studentClient();
    expect((await client.get(`/coupons/${coupon.id}/tokens`)).status).toBe(403);
    expect((await client.get(`/coupon_tokens/${token.id}`)).status).toBe(403);
    expectNotFound(await other.admin.get(`/coupon_tokens/${token.id}`));
    expectNotFound(await other.admin.get(`/coupons/${coupon.id}/tokens`));
    expectNotFound(await other.admin.get(`/coupon_tokens?coupon_id=${coupon.id}`));
    expectNotFound(await other.admin.post(`/coupons/${coupon.id}/tokens`, { coupon_token: { token: unique('T') } }));
  });
});

describe('gateway credentials', () => {
  it('created (the signing secret shown once), listed, shown and updated by the admin; others are refused', async () => {
    const credential = await created(
      await school.admin.post('/gateway_credentials', { gateway_credential: { gateway: 'pagarme', name: 'Main', environment: 'sandbox', secret_key: 'sk_test_123456' } }),
      '/gateway_credentials',
    );
    expect(credential).toMatchObject({ gateway: 'pagarme', environment: 'sandbox', signing_secret: expect.stringMatching(/^whsec_/) });
    expect(JSON.stringify(credential)).not.toContain('sk_test_123456');
    const shown = await school.admin.get(`/gateway_credentials/${credential.id}`);
    expect(shown.body).toMatchObject({ id: credential.id, signing_secret: null });
    expect((await school.admin.get('/gateway_credentials')).body.map((c: { id: number }) => c.id)).toContain(credential.id);
    expect((await school.admin.put(`/gateway_credentials/${credential.id}`, { gateway_credential: { name: 'Renamed' } })).body.name).toBe('Renamed');
    const collaborator = await person(school, 'Collaborator');
    expect((await (await service.token('collaborator', school.id, collaborator.id)).get('/gateway_credentials')).status).toBe(403);
    expectNotFound(await other.admin.get(`/gateway_credentials/${credential.id}`));
  });
});

describe('GET /orders', () => {
  it('lists the school’s orders with the status and student filters; a student sees its own; another school none of ours', async () => {
    const p = await product();
    await school.admin.put(`/school_products/${p.id}`, { school_product: { published: true } });
    const option = await created(await school.admin.post(`/school_products/${p.id}/payment_options`, { payment_option: { name: 'Full', price: 1000 } }), '/payment_options');
    const { student, client } = await studentClient();
    const someone = await person(school);
    const order = async (studentId: number) => {
      const res = await school.admin.post('/orders', { order: { student_id: studentId, items_attributes: [{ payment_option_id: option.id }] } });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const mine = await order(student.id);
    const theirs = await order(someone.id);
    const all = (await school.admin.get('/orders')).body.map((o: { id: number }) => o.id);
    expect(all).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect((await school.admin.get(`/orders?student_id=${someone.id}`)).body.map((o: { id: number }) => o.id)).toEqual([theirs.id]);
    expect((await school.admin.get(`/orders?status=${mine.status}&page=1&per_page=50`)).body.length).toBeGreaterThanOrEqual(2);
    expect((await client.get('/orders')).body.map((o: { id: number }) => o.id)).toEqual([mine.id]);
    expect((await other.admin.get('/orders')).body).toEqual([]);
  });
});
