import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { getTableConfig, integer, PgTable, pgTable, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/modules/users/user.table.js';
import { type PersonalTable, personalData } from '../../src/db/personal-data.js';

/**
 * The registry of personal data (src/db/personal-data.ts) covers the schema: every
 * table that refers to a person, or has a column named like personal data, is classified there,
 * and every personal-looking column of a classified table is anonymised, hidden or said not to be
 * a person's. A table added later fails here until its line is written.
 */
const tableModules = import.meta.glob<Record<string, unknown>>('../../src/**/*.table.ts', { eager: true });
const schemaTables = [...new Set(Object.values(tableModules).flatMap((exports) => Object.values(exports).filter((x): x is PgTable => is(x, PgTable))))];

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** Column names that hold, or may hold, a person's data. */
const PERSONAL_NAME = /(^|_)(e_?mail|name|phone|mobile|document|cpf|rg|cnpj|address|street|zip|birth(day|date)?|cardholder|password|ip_address)(_|$)/;
/** Columns that name a person without a foreign key (polymorphic owners and the like). */
const PERSON_REFERENCE = /(^|_)(user|student|sender|author|owner|person|teacher|recipient)_id$/;

/** What a table holds that the registry must speak of: its references to users and its personal-looking columns (by property). */
function personalColumns(table: PgTable) {
  const config = getTableConfig(table);
  const referencing = new Set(
    config.foreignKeys.filter((fk) => fk.reference().foreignTable === users).flatMap((fk) => fk.reference().columns.map((c) => c.name)),
  );
  const columns = Object.entries(getTableColumns(table));
  return {
    references: columns.filter(([key, column]) => referencing.has(column.name) || PERSON_REFERENCE.test(snake(key))).map(([key]) => key),
    personal: columns.filter(([key]) => PERSONAL_NAME.test(snake(key))).map(([key]) => key),
  };
}

/** The problems of a registry against a list of tables: each a sentence naming the table. */
function coverageProblems(tables: readonly PgTable[], registry: readonly PersonalTable[]): string[] {
  const problems: string[] = [];
  const byTable = new Map<PgTable, PersonalTable[]>();
  for (const entry of registry) byTable.set(entry.table, [...(byTable.get(entry.table) ?? []), entry]);
  for (const table of tables) {
    const name = getTableName(table);
    const { references, personal } = personalColumns(table);
    const entries = byTable.get(table) ?? [];
    const said = new Set(entries.flatMap((e) => Object.keys(e.notPersonal ?? {})));
    const refersToPeople = references.some((key) => !said.has(key));
    if (entries.length === 0) {
      if (refersToPeople || personal.length || table === users)
        problems.push(`${name} is not classified in src/db/personal-data.ts (it ${refersToPeople ? 'refers to a person' : `has ${personal.join(', ')}`})`);
      continue;
    }
    const keys = Object.keys(getTableColumns(table));
    for (const entry of entries) {
      for (const key of [...Object.keys(entry.anonymise ?? {}), ...(entry.hidden ?? []), ...Object.keys(entry.notPersonal ?? {})])
        if (!keys.includes(key)) problems.push(`${name}: the registry names a column ${key} it does not have`);
      if (entry.relation !== 'none' && !entry.rows) problems.push(`${name}: no rows of the person`);
      if (entry.relation === 'none' && refersToPeople) problems.push(`${name} refers to a person but is classified as holding nothing about one`);
      if (entry.erase === 'delete') continue;
      const covered = new Set([...Object.keys(entry.anonymise ?? {}), ...Object.keys(entry.notPersonal ?? {})]);
      for (const key of personal) if (!covered.has(key)) problems.push(`${name}.${key} looks personal: anonymise it, or say in notPersonal why it is not`);
    }
  }
  for (const entry of registry) if (!tables.includes(entry.table)) problems.push(`${getTableName(entry.table)} is in the registry but not in the schema`);
  const keys = registry.filter((e) => e.key).map((e) => e.key!);
  for (const key of new Set(keys)) if (keys.filter((k) => k === key).length > 1) problems.push(`the export key ${key} is used twice`);
  return problems;
}

describe('the registry of personal data covers the schema', () => {
  it('reads the tables of every *.table.ts', () => {
    expect(schemaTables.length).toBeGreaterThan(50);
    expect(schemaTables).toContain(users);
  });

  it('classifies every table that refers to a person or has a column named like personal data, and each such column', () => {
    expect(coverageProblems(schemaTables, personalData)).toEqual([]);
  });

  it('given a new table with a user column or a personal-looking column and no line, then it fails', () => {
    const sessions = pgTable('sessions', { id: integer().primaryKey(), userId: integer().references(() => users.id) });
    const mails = pgTable('mails', { id: integer().primaryKey(), toAddress: text(), body: text() });
    const owners = pgTable('things', { id: integer().primaryKey(), ownerId: integer() });
    const problems = coverageProblems([...schemaTables, sessions, mails, owners], personalData);
    expect(problems).toEqual([
      'sessions is not classified in src/db/personal-data.ts (it refers to a person)',
      'mails is not classified in src/db/personal-data.ts (it has toAddress)',
      'things is not classified in src/db/personal-data.ts (it refers to a person)',
    ]);
  });

  it('given a classified table with a personal column left out, then it fails', () => {
    const withoutPhone = personalData.map((e) =>
      e.table === users ? { ...e, anonymise: Object.fromEntries(Object.entries(e.anonymise ?? {}).filter(([key]) => key !== 'phone')) } : e,
    );
    expect(coverageProblems(schemaTables, withoutPhone)).toEqual(['users.phone looks personal: anonymise it, or say in notPersonal why it is not']);
  });
});
