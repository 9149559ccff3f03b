import * as drizzle from 'drizzle-orm';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SelectedField } from '../src/db/row-decoder.js';
import { schools } from '../src/db/school.table.js';
import { type Service, startService } from './support/service.js';

/** drizzle's own row mapping (exported, typed internal). */
const { mapResultRow } = drizzle as unknown as { mapResultRow: (fields: SelectedField[], row: unknown[], joins: undefined) => object };

/** The parts of a drizzle prepared query the decoder sets (db/row-decoder.ts). */
type Internals = { fields: SelectedField[]; customResultMapper?: (rows: unknown[][]) => object[] };

/**
 * Selects map their rows with a decoder generated once per column list (db/row-decoder.ts) instead
 * of drizzle's mapResultRow: on the driver's own rows, both must give the same objects, on both drivers.
 */
describe('the generated row decoder', () => {
  let service: Service;
  let schoolId: number;
  beforeAll(async () => {
    service = await startService();
    schoolId = (await service.school('Decoded School')).id;
    // A row with values of every kind: nulls, text, numbers, booleans, timestamps, JSON.
    await service.db.update(schools).set({ seoDescription: null, createdAt: new Date('2024-03-10T07:30:00.123Z') }).where(eq(schools.id, schoolId));
  });
  afterAll(async () => {
    await service?.stop();
  });

  it("maps a table's rows as drizzle's mapResultRow does: the same keys, values and types (Dates, nulls)", async () => {
    const prepared = service.db.select().from(schools).where(eq(schools.id, sql.placeholder('id'))).prepare('decoder_test_all');
    const internals = prepared as unknown as Internals;
    const generated = internals.customResultMapper!;
    expect(generated).toBeTypeOf('function');
    let raw: unknown[][] = [];
    internals.customResultMapper = (rows) => generated((raw = rows));
    const decoded = (await prepared.execute({ id: schoolId })) as Record<string, unknown>[];
    const mapped = raw.map((row) => mapResultRow(internals.fields, row, undefined)) as Record<string, unknown>[];
    expect(decoded).toHaveLength(1);
    expect(decoded).toEqual(mapped);
    expect(Object.keys(decoded[0]!)).toEqual(Object.keys(mapped[0]!));
    expect(decoded[0]!.createdAt).toBeInstanceOf(Date);
    expect((decoded[0]!.createdAt as Date).toISOString()).toBe('2024-03-10T07:30:00.123Z');
    expect(decoded[0]!.seoDescription).toBeNull();
    expect(decoded[0]!.id).toBe(schoolId);
    // A select built again (not prepared) reuses the decoder of its column list.
    const again = service.db.select().from(schools).where(eq(schools.id, schoolId)).prepare('decoder_test_again') as unknown as Internals;
    expect(again.customResultMapper).toBe(generated);
  });

  it('leaves a select with a computed field to drizzle', async () => {
    const prepared = service.db
      .select({ id: schools.id, upper: sql<string>`upper(${schools.name})` })
      .from(schools)
      .where(eq(schools.id, sql.placeholder('id')))
      .prepare('decoder_test_computed');
    expect((prepared as unknown as Internals).customResultMapper).toBeUndefined();
    expect(await prepared.execute({ id: schoolId })).toEqual([{ id: schoolId, upper: 'DECODED SCHOOL' }]);
  });
});
