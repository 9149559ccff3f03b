import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import { rowsOf } from '../src/db/rows.js';
import { type Service, startService } from './support/service.js';

/**
 * Every connection runs in UTC whatever the server's (or the database's) own setting, so SQL date
 * arithmetic (the release rule's `activated + make_interval(days => n)`) adds days of 24 hours,
 * across a daylight-saving change too. 2024-03-10 is the day New York moves its clocks forward: in
 * that zone one day after 2024-03-09 12:00 UTC would be 2024-03-10 11:00 UTC.
 */
async function sessionOf(database: Database) {
  const zone = rowsOf<{ TimeZone?: string; timezone?: string }>(await database.db.execute(sql`show timezone`))[0]!;
  const [sum] = rowsOf<{ later: string }>(
    await database.db.execute(sql`select to_char(('2024-03-09T12:00:00Z'::timestamptz + make_interval(days => 1)) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as later`),
  );
  return { zone: zone.TimeZone ?? zone.timezone, oneDayLater: sum!.later };
}

describe('the session time zone', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('PGlite: a database opened by the service answers show timezone with UTC, and a day is 24 hours across a DST change', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      expect(await sessionOf(database)).toEqual({ zone: 'UTC', oneDayLater: '2024-03-10T12:00' });
    } finally {
      await database.close();
    }
  });

  it("the service's own database connection is in UTC", async () => {
    expect(await sessionOf(service.database)).toEqual({ zone: 'UTC', oneDayLater: '2024-03-10T12:00' });
  });

  it.runIf(inject('testDatabase').kind === 'postgres')(
    'PostgreSQL: every pooled connection is in UTC even when the database defaults to a zone with daylight saving',
    async () => {
      const url = service.databaseUrl!;
      const name = new URL(url).pathname.slice(1);
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`alter database "${name}" set timezone to 'America/New_York'`);
        // A plain connection now gets the database's zone: the setting the service must override.
        const plain = postgres(url, { max: 1, onnotice: () => {} });
        const [{ TimeZone: plainZone }] = await plain.unsafe('show timezone');
        await plain.end();
        expect(plainZone).toBe('America/New_York');
        const database = await openDatabase({ url, maxConnections: 3 });
        try {
          // Several at once, so that more than one connection of the pool answers.
          const sessions = await Promise.all([sessionOf(database), sessionOf(database), sessionOf(database)]);
          expect(sessions).toEqual(Array(3).fill({ zone: 'UTC', oneDayLater: '2024-03-10T12:00' }));
        } finally {
          await database.close();
        }
      } finally {
        await admin.unsafe(`alter database "${name}" reset timezone`);
        await admin.end();
      }
    },
  );
});
