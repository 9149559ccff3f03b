import { describe, expect, it } from 'vitest';
import { enrollmentRestFixtures, NOW, type Person } from '../support/enrollments.fixtures.js';
import { expectFieldError } from '../support/rest-assertions.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// POST /enrollments without available_until (and without unlimited) takes the product's access
// period (src/modules/school-products/school-product.access.ts): its duration from the activation,
// its date, or unlimited when it has none. unlimited: false without a date stays a 422.

let service: Service;
let school: TestSchool;
const world = twoSchools('Access School', 'Other Access School', (w) => ({ service, school } = w));
const { student, body } = enrollmentRestFixtures(world);

describe('POST /enrollments takes the product’s access period', () => {
  let p: Person;
  const productWith = async (fields: Record<string, unknown>) => {
    const res = await school.admin.post('/school_products', { school_product: { title: 'Timed', ...fields } });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const enroll = (productId: number, fields: Record<string, unknown> = {}) =>
    school.admin.post('/enrollments', { enrollment: body(p, productId, { available_until: undefined, status: 'active', ...fields }) });

  it('given a product of 12 months, then available_until is a year after now', async () => {
    p = await student(school);
    const res = await enroll(await productWith({ available_time_type: 'time', available_time_length: 12, available_time_unit: 'months' }));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ unlimited: false, available_until: '2027-01-15T12:00:00.000Z', activated_at: NOW });
    expect(service.clock.now().toISOString()).toBe(NOW);
  });

  it('given a product of 3 weeks or with an expire date, then those', async () => {
    expect((await enroll(await productWith({ available_time_type: 'time', available_time_length: 3, available_time_unit: 'weeks' }))).body.available_until).toBe(
      '2026-02-05T12:00:00.000Z',
    );
    const dated = await enroll(await productWith({ available_time_type: 'date', expire_date: '2026-06-30T00:00:00Z' }));
    expect(dated.body).toMatchObject({ unlimited: false, available_until: '2026-06-30T00:00:00.000Z' });
  });

  it('given a product without a period, then the enrollment is unlimited; with unlimited false, 422 as before', async () => {
    const productId = await productWith({});
    expect((await enroll(productId)).body).toMatchObject({ unlimited: true, available_until: null });
    expectFieldError(await enroll(productId, { unlimited: false }), 422, 'available_until', 'blank');
  });

  it('given available_until, then it wins over the product’s', async () => {
    const res = await enroll(await productWith({ available_time_type: 'time', available_time_length: 1, available_time_unit: 'days' }), { available_until: '2030-01-01T00:00:00Z' });
    expect(res.body.available_until).toBe('2030-01-01T00:00:00.000Z');
  });
});
