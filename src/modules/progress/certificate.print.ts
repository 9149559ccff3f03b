import { Readable } from 'node:stream';
import { FILE_CONTENT_SECURITY_POLICY } from '../../http/security.js';
import type { StreamBody } from '../../rest/route-table.js';
import type { PrintableCertificate } from './certificate.type.js';

/**
 * The REST reply of GET /certificates/:code.pdf (route-table.ts, StreamBody): the file, sent inline.
 * The drawing (certificate.pdf.ts: pdf-lib, its fonts, the QR code) is loaded at the first certificate
 * printed, not at start-up: most processes never print one.
 */
export const certificatePdf: StreamBody = {
  type: 'application/pdf',
  description: 'The certificate to print: one A4 landscape page with the person, the product, the date, the school and a QR code of its verification URL.',
  async open(certificate: PrintableCertificate) {
    const { renderCertificatePdf } = await import('./certificate.pdf.js');
    const body = await renderCertificatePdf(certificate);
    return {
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="certificate-${certificate.code.replace(/[^\w.-]/g, '_')}.pdf"`,
        // Public, and it names a person: no shared cache keeps it, and a browser asks again each time, so an
        // erased person's certificate is gone at once.
        'cache-control': 'private, no-cache',
        'content-security-policy': FILE_CONTENT_SECURITY_POLICY,
      },
      body: Readable.from([Buffer.from(body.buffer, body.byteOffset, body.byteLength)]),
    };
  },
};
