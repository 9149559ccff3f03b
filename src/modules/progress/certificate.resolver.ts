import 'reflect-metadata';
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { certificateByCode, certificateLocale, certificateVerificationUrl, storedLogo } from './certificate.lookup.js';
import { PrintableCertificate } from './certificate.type.js';

@Resolver()
export class CertificatePrintResolver {
  @Query(() => PrintableCertificate, {
    description: 'A certificate as it is printed, by its verification code, with no credential (the PDF at GET /certificates/:code.pdf is made from it).',
  })
  async printableCertificate(@Arg('code', () => String) code: string, @Ctx() ctx: Context): Promise<PrintableCertificate> {
    const row = await certificateByCode(ctx.db, code);
    if (!row) throw notFound('Certificate');
    return {
      code: row.code,
      studentName: row.studentName,
      productTitle: row.productTitle,
      issuedAt: row.issuedAt,
      schoolName: row.schoolName,
      schoolLogo: storedLogo(row.schoolLogo),
      locale: certificateLocale(row.schoolLocale),
      verificationUrl: certificateVerificationUrl(row.code),
    };
  }
}
