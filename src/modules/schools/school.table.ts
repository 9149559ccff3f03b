import { sql } from 'drizzle-orm';
import { integer, jsonb, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { SCHOOL_STATUSES } from '../../auth/school-gate.js';
import { belongsTo, id, timestamps, tstz } from '../../db/columns.js';
import { indexOn, orderedIndex } from '../../db/indexes.js';

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
    // Write-only tokens, stored as the others (auth/secrets.ts): AES-GCM ciphertext and a hint.
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
    metadata: jsonb().$type<Record<string, unknown>>(),
    metaAvailableLocales: jsonb().$type<unknown>(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('schools_subdomain_key').on(sql`lower(${t.subdomain})`),
    indexOn(t.organizationId),
  ],
);

/** A school's custom domains: a table (not an array column) so a domain is unique across schools. */
export const schoolDomains = pgTable(
  'school_domains',
  {
    id: id(),
    schoolId: belongsTo(() => schools.id),
    domain: text().notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndex('school_domains_domain_key').on(sql`lower(${t.domain})`),
    orderedIndex(t.schoolId, t.position),
  ],
);

/** The owning school of every school-owned row: `schoolId: schoolRef()`. Deleting a school removes its rows. */
export const schoolRef = () => belongsTo(() => schools.id);

/** Every state change of a school, with the event that caused it. */
export const schoolStatusChanges = pgTable(
  'school_status_changes',
  {
    id: id(),
    schoolId: schoolRef(),
    event: text().notNull(),
    fromStatus: schoolStatus().notNull(),
    toStatus: schoolStatus().notNull(),
    createdAt: tstz().notNull().defaultNow(),
  },
  (t) => [orderedIndex(t.schoolId, t.createdAt)],
);
