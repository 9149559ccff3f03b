import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRowsOnce } from '../src/db/row-decoder.js';
import { schools } from '../src/modules/schools/school.table.js';
import { type Service, startService } from './support/service.js';

/**
 * The prepared reads of the loaders map rows with a decoder generated once per statement
 * (db/row-decoder.ts) instead of drizzle's mapping: both must give the same rows, on both drivers.
 */
describe('the generated row decoder', () => {
  let service: Service;
  let schoolId: number;
  beforeAll(async () => {
    service = await startService();
    schoolId = (await service.school('Decoded School')).id;
    // A row with values of every kind: nulls, text, numbers, booleans, timestamps.
    await service.db.update(schools).set({ seoDescription: null, createdAt: new Date('2024-03-10T07:30:00.123Z') }).where(eq(schools.id, schoolId));
  });
  afterAll(async () => {
    await service?.stop();
  });

  const read = (name: string) => service.db.select().from(schools).where(eq(schools.id, sql.placeholder('id'))).prepare(name);

  it("maps a table's rows as drizzle does: the same keys, values and types (Dates, nulls)", async () => {
    const decoded = (await decodeRowsOnce(read('decoder_test_generated')).execute({ id: schoolId })) as Record<string, unknown>[];
    const mapped = (await read('decoder_test_drizzle').execute({ id: schoolId })) as Record<string, unknown>[];
    expect(decoded).toHaveLength(1);
    expect(decoded).toEqual(mapped);
    expect(Object.keys(decoded[0]!)).toEqual(Object.keys(mapped[0]!));
    expect(decoded[0]!.createdAt).toBeInstanceOf(Date);
    expect((decoded[0]!.createdAt as Date).toISOString()).toBe('2024-03-10T07:30:00.123Z');
    expect(decoded[0]!.seoDescription).toBeNull();
    expect(decoded[0]!.id).toBe(schoolId);
  });

  it('leaves a select with a computed field to drizzle', async () => {
    const prepared = service.db
      .select({ id: schools.id, upper: sql<string>`upper(${schools.name})` })
      .from(schools)
      .where(eq(schools.id, sql.placeholder('id')))
      .prepare('decoder_test_computed');
    const rows = await decodeRowsOnce(prepared).execute({ id: schoolId });
    expect(rows).toEqual([{ id: schoolId, upper: 'DECODED SCHOOL' }]);
    expect((prepared as unknown as { customResultMapper?: unknown }).customResultMapper).toBeUndefined();
  });
});
