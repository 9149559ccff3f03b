import { sql } from 'drizzle-orm';
import { integer, jsonb, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps } from './columns.js';
import { indexOn } from './indexes.js';

/**
 * The school every school-owned row belongs to, kept here below auth/ and the modules: the
 * credential lookup joins its status, the gate reads it, and every table refers to it
 * (`schoolRef`). The school's own domain (its domains, its status history, its rules) stays in
 * modules/schools.
 */

/** A school's lifecycle states, in the `school_status` enum's order (auth/school-gate.ts says what each lets its credentials do). */
export const SCHOOL_STATUSES = ['pending', 'trial', 'active', 'overdue', 'blocked', 'suspended', 'canceled'] as const;
export type SchoolStatus = (typeof SCHOOL_STATUSES)[number];

export const schoolStatus = pgEnum('school_status', SCHOOL_STATUSES);

export const organizations = pgTable('organizations', {
  id: id(),
  name: text().notNull(),
  ...timestamps,
});

export const schools = pgTable(
  'schools',
  {
    id: id(),
    organizationId: integer().references(() => organizations.id, { onDelete: 'set null' }),
    name: text().notNull(),
    subdomain: text().notNull(),
    status: schoolStatus().notNull().default('pending'),
    // Write-only tokens, stored as the others (db/secrets.ts): AES-GCM ciphertext and a hint.
    crmTokenCiphertext: text(),
    crmTokenHint: text(),
    adsAdvId: text(),
    adsPixId: text(),
    email: text(),
    phone: text(),
    cnpj: text(),
    videoKey: text(),
    videoPlayerKey: text(),
    videoAccessTokenCiphertext: text(),
    videoAccessTokenHint: text(),
    videoProjectId: text(),
    termsOfUse: text(),
    socialLink1: text(),
    socialLink2: text(),
    socialLink3: text(),
    socialLink4: text(),
    socialLink5: text(),
    socialLink6: text(),
    socialLink7: text(),
    site: text(),
    address: text(),
    companyName: text(),
    seoTitle: text(),
    seoDescription: text(),
    logo: text(),
    /** The school's language for mails (pt-BR, en, es); null: pt-BR. */
    locale: text(),
    /** The IANA time zone the school's days are counted in (reports' days, weeks and months). */
    timeZone: text().notNull().default('America/Sao_Paulo'),
    metadata: jsonb().$type<Record<string, unknown>>(),
    metaAvailableLocales: jsonb().$type<unknown>(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('schools_subdomain_key').on(sql`lower(${t.subdomain})`),
    indexOn(t.organizationId),
  ],
);

/** The owning school of every school-owned row: `schoolId: schoolRef()`. Deleting a school removes its rows. */
export const schoolRef = () => belongsTo(() => schools.id);
