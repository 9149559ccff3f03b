import { eq } from 'drizzle-orm';
import { config } from '../../config.js';
import { schools } from '../../db/school.table.js';
import type { Db } from '../../db/types.js';
import { negotiateLocale, type Locale } from '../../errors/i18n.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { users } from '../users/user.table.js';
import { certificates } from './progress.table.js';

/**
 * A certificate by its public code, as anyone may read it: the one rule of both the JSON
 * verification (`certificate`) and the printed certificate (`printableCertificate`). Codes are
 * random and unique across schools, so no school filter applies; a code that matches nothing is a 404.
 */
export async function certificateByCode(db: Db, code: string) {
  const [row] = await db
    .select({
      code: certificates.code,
      studentName: users.fullName,
      productTitle: schoolProducts.title,
      issuedAt: certificates.issuedAt,
      schoolName: schools.name,
      schoolLogo: schools.logo,
      schoolLocale: schools.locale,
    })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.studentId))
    .innerJoin(schoolProducts, eq(schoolProducts.id, certificates.schoolProductId))
    .innerJoin(schools, eq(schools.id, certificates.schoolId))
    .where(eq(certificates.code, code.trim()));
  return row ?? null;
}

/** The public verification of a certificate (GET /certificates/:code needs no credential). */
export const certificateVerificationUrl = (code: string) => `${config.publicUrl}/certificates/${encodeURIComponent(code)}`;

/**
 * The school's logo when its record holds the image itself (a `data:` URL of a PNG or JPEG). A logo
 * at a remote address is never fetched: the certificate is public, so a fetch per request would let
 * anyone make the service call out (and wait on) an address a school typed; it prints the name alone.
 */
export function storedLogo(logo: string | null): string | null {
  return logo && /^data:image\/(png|jpe?g);base64,[A-Za-z0-9+/=\s]+$/i.test(logo) ? logo : null;
}

/** The language a school's certificates are worded in: its own (null: pt-BR, as its mails). */
export const certificateLocale = (schoolLocale: string | null): Locale => negotiateLocale(schoolLocale ?? 'pt-BR');
