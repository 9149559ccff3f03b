import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { groupedDecoder, type GroupedRows, type SelectedField } from '../../src/db/driver-adapter.js';
import { enrollments } from '../../src/modules/enrollments/enrollment.table.js';
import { users } from '../../src/modules/users/user.table.js';

// The driver adapter's decoder of a page with joined rows (db/driver-adapter.ts' groupedDecoder, which
// pagination.ts' schoolPage uses): rows as the driver gives them (arrays), decoded the same way by the
// generated function and by the loop.

const JOINED = Symbol('joined student');
const BY = Symbol('by');
const fields: SelectedField[] = [
  { path: ['id'], field: enrollments.id },
  { path: ['createdAt'], field: enrollments.createdAt },
  { path: ['availableUntil'], field: enrollments.availableUntil },
  { path: ['__total'], field: sql<number>`count(*) over ()`.as('__total') },
  { path: ['student.id'], field: users.id },
  { path: ['student.schoolId'], field: users.schoolId },
  { path: ['student.email'], field: users.email },
];
const shape: GroupedRows = {
  keys: ['id', 'createdAt', 'availableUntil', '__total'],
  groups: [{ key: JOINED, keys: ['id', 'schoolId', 'email'], names: ['student.id', 'student.schoolId', 'student.email'] }],
  constants: [[BY, 'shared']],
};
const rows = [
  [1, '2024-03-10 07:30:00.123+00', null, '2', 7, 3, 'a@example.com'],
  [2, '2024-03-11 08:00:00+00', '2025-01-01 00:00:00+00', '2', null, null, null],
];

describe('groupedDecoder', () => {
  it('given a page of rows with a joined row, then each row of its own columns decoded, the joined row under its key (undefined when missing), and the constants', () => {
    const decoded = ['generated', 'plain'].map((kind) => groupedDecoder(fields, kind as 'generated' | 'plain', shape)!(rows) as Record<string | symbol, unknown>[]);
    /** A row's string-keyed properties (the joined row and the constants are under symbols). */
    const own = (row: Record<string | symbol, unknown>) => Object.fromEntries(Object.entries(row));
    const parts = (page: Record<string | symbol, unknown>[]) => page.map((row) => [own(row), row[JOINED], row[BY]]);
    expect(parts(decoded[0])).toEqual(parts(decoded[1]));
    for (const [first, second] of decoded) {
      expect(own(first)).toEqual({ id: 1, createdAt: new Date('2024-03-10T07:30:00.123Z'), availableUntil: null, __total: '2' });
      expect(first[JOINED]).toEqual({ id: 7, schoolId: 3, email: 'a@example.com' });
      expect(Object.keys(first[JOINED] as object)).toEqual(['id', 'schoolId', 'email']);
      expect(first[BY]).toBe('shared');
      expect(own(second)).toEqual({ id: 2, createdAt: new Date('2024-03-11T08:00:00Z'), availableUntil: new Date('2025-01-01T00:00:00Z'), __total: '2' });
      expect(JOINED in second).toBe(true);
      expect(second[JOINED]).toBeUndefined();
      expect(Object.keys(first)).toEqual(['id', 'createdAt', 'availableUntil', '__total']);
    }
  });

  it('given fields that are not exactly those the shape names, then no decoder (drizzle or decoderFor decode them)', () => {
    expect(groupedDecoder(fields.slice(1), 'generated', shape)).toBeNull();
    expect(groupedDecoder([...fields, { path: ['student', 'fullName'], field: users.fullName }], 'plain', shape)).toBeNull();
  });
});
