import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import QRCode from 'qrcode';
import type { Locale } from '../../errors/i18n.js';
import type { PrintableCertificate } from './certificate.type.js';

/**
 * The printed certificate (GET /certificates/:code.pdf), drawn with pdf-lib: one A4 landscape page
 * with the school's name (and its logo, when its record holds the image: certificate.lookup.ts),
 * the person, the product, the date, and a QR code of the public verification URL.
 *
 * The text is set in the PDF standard Times fonts, which every reader has: nothing to embed, a page of
 * a few kilobytes made in milliseconds. Their WinAnsi encoding covers Latin-1 and more (João, Conceição,
 * Muñoz, Œ, Š); a letter beyond it is written without its accent when it has one (ő → o, ł → ?),
 * else as `?` (see printable). An embedded font (fontkit) was tried: Noto's subsets lost glyphs and
 * took a second a page.
 */
const WORDS: Record<Locale, { title: string; certifies: string; completed: string; on: (date: string) => string; issuedBy: string; verify: string; code: string }> = {
  'pt-BR': {
    title: 'Certificado de conclusão',
    certifies: 'Certificamos que',
    completed: 'concluiu',
    on: (date) => `em ${date}`,
    issuedBy: 'Emitido por',
    verify: 'Verifique a autenticidade em',
    code: 'Código',
  },
  en: {
    title: 'Certificate of completion',
    certifies: 'This certifies that',
    completed: 'has completed',
    on: (date) => `on ${date}`,
    issuedBy: 'Issued by',
    verify: 'Verify its authenticity at',
    code: 'Code',
  },
  es: {
    title: 'Certificado de finalización',
    certifies: 'Certificamos que',
    completed: 'ha completado',
    on: (date) => `el ${date}`,
    issuedBy: 'Emitido por',
    verify: 'Verifique su autenticidad en',
    code: 'Código',
  },
};

const NAVY = rgb(0.11, 0.2, 0.35);
const GOLD = rgb(0.72, 0.58, 0.33);
const INK = rgb(0.13, 0.13, 0.16);
const MUTED = rgb(0.4, 0.4, 0.45);
/** A4 landscape, in points. */
const WIDTH = 841.89;
const HEIGHT = 595.28;
const CENTER = WIDTH / 2;

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
}

/** The characters the standard fonts encode (WinAnsi), read once from pdf-lib. */
const ENCODABLE: Promise<Set<number>> = PDFDocument.create()
  .then((doc) => doc.embedFont(StandardFonts.TimesRoman))
  .then((font) => new Set(font.getCharacterSet()));

/** `text` as the standard fonts can write it: a letter they lack loses its accents (ő → o), else becomes `?`; spacing is one space. */
function printable(text: string, encodable: Set<number>): string {
  let out = '';
  for (const char of text.replace(/\s+/g, ' ').trim()) {
    if (encodable.has(char.codePointAt(0)!)) out += char;
    else {
      const bare = char.normalize('NFD').replace(/\p{M}/gu, '');
      out += bare && [...bare].every((c) => encodable.has(c.codePointAt(0)!)) ? bare : '?';
    }
  }
  return out;
}

/** `text` centred on the page at baseline `y`, made smaller (down to `min`) until it fits `maxWidth`. */
function centred(page: PDFPage, text: string, y: number, font: PDFFont, size: number, color = INK, maxWidth = WIDTH - 180, min = size * 0.6): number {
  while (size > min && font.widthOfTextAtSize(text, size) > maxWidth) size -= 1;
  page.drawText(text, { x: CENTER - font.widthOfTextAtSize(text, size) / 2, y, size, font, color });
  return size;
}

/** `text` in lines no wider than `maxWidth` (words longer than a line stay whole), at most `max` lines, the last shortened with an ellipsis. */
function lines(text: string, font: PDFFont, size: number, maxWidth: number, max: number): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = out.at(-1);
    if (last !== undefined && font.widthOfTextAtSize(`${last} ${word}`, size) <= maxWidth) out[out.length - 1] = `${last} ${word}`;
    else out.push(word);
  }
  if (out.length <= max) return out;
  const kept = out.slice(0, max);
  let tail = kept[max - 1];
  while (tail.length > 1 && font.widthOfTextAtSize(`${tail}…`, size) > maxWidth) tail = tail.slice(0, -1);
  kept[max - 1] = `${tail.trimEnd()}…`;
  return kept;
}

/** The QR code of `text` as vector squares, its top-left corner at (x, top), `side` points wide. */
function drawQr(page: PDFPage, text: string, x: number, top: number, side: number) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  let path = '';
  for (let row = 0; row < modules.size; row++)
    for (let col = 0; col < modules.size; col++) if (modules.get(row, col)) path += `M${col} ${row}h1v1h-1z`;
  page.drawSvgPath(path, { x, y: top, scale: side / modules.size, color: rgb(0, 0, 0), borderWidth: 0 });
}

async function embedLogo(doc: PDFDocument, dataUrl: string | null): Promise<PDFImage | null> {
  if (!dataUrl) return null;
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  try {
    return /^data:image\/png/i.test(dataUrl) ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
  } catch {
    return null; // an image that does not decode: the name alone, as for a remote logo
  }
}

/** The certificate as a PDF document. */
export async function renderCertificatePdf(given: PrintableCertificate): Promise<Uint8Array> {
  const locale = (given.locale in WORDS ? given.locale : 'pt-BR') as Locale;
  const words = WORDS[locale];
  const encodable = await ENCODABLE;
  const certificate = {
    ...given,
    studentName: printable(given.studentName, encodable),
    productTitle: printable(given.productTitle, encodable),
    schoolName: printable(given.schoolName, encodable),
  };
  const doc = await PDFDocument.create();
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.TimesRoman),
    bold: await doc.embedFont(StandardFonts.TimesRomanBold),
    italic: await doc.embedFont(StandardFonts.TimesRomanItalic),
  };
  const issuedAt = new Date(certificate.issuedAt);
  // The same data makes the same bytes: the document's dates are the certificate's.
  doc.setTitle(`${words.title}: ${certificate.studentName}`);
  doc.setAuthor(certificate.schoolName);
  doc.setSubject(certificate.productTitle);
  doc.setKeywords([certificate.code]);
  doc.setLanguage(locale);
  doc.setCreator(certificate.schoolName);
  doc.setProducer('learning-platform (pdf-lib)');
  doc.setCreationDate(issuedAt);
  doc.setModificationDate(issuedAt);

  const page = doc.addPage([WIDTH, HEIGHT]);
  // A double frame: a navy rule, a fine gold one inside it.
  page.drawRectangle({ x: 22, y: 22, width: WIDTH - 44, height: HEIGHT - 44, borderColor: NAVY, borderWidth: 3 });
  page.drawRectangle({ x: 31, y: 31, width: WIDTH - 62, height: HEIGHT - 62, borderColor: GOLD, borderWidth: 1 });

  // The school: its logo (at most 180 x 56) above its name, or the name alone.
  const logo = await embedLogo(doc, certificate.schoolLogo);
  let schoolY = 496;
  if (logo) {
    const scale = Math.min(180 / logo.width, 56 / logo.height, 1);
    const [w, h] = [logo.width * scale, logo.height * scale];
    page.drawImage(logo, { x: CENTER - w / 2, y: 532 - h, width: w, height: h });
    schoolY = 532 - h - 20;
  }
  centred(page, certificate.schoolName.toUpperCase(), schoolY, fonts.bold, 13, NAVY);

  centred(page, words.title, 416, fonts.bold, 36, NAVY);
  page.drawLine({ start: { x: CENTER - 70, y: 400 }, end: { x: CENTER + 70, y: 400 }, thickness: 1.5, color: GOLD });

  centred(page, words.certifies, 362, fonts.italic, 15, MUTED);
  centred(page, certificate.studentName, 314, fonts.bold, 34, INK, WIDTH - 180, 16);
  centred(page, words.completed, 276, fonts.italic, 15, MUTED);
  const productLines = lines(certificate.productTitle, fonts.regular, 21, WIDTH - 220, 2);
  let y = 240;
  for (const line of productLines) {
    centred(page, line, y, fonts.regular, 21, NAVY, WIDTH - 220);
    y -= 27;
  }
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(issuedAt);
  centred(page, words.on(date), y - 6, fonts.regular, 14, INK);

  // Bottom left: who issued it, over a signature-like rule.
  page.drawLine({ start: { x: 70, y: 104 }, end: { x: 300, y: 104 }, thickness: 0.8, color: MUTED });
  page.drawText(words.issuedBy, { x: 70, y: 88, size: 9, font: fonts.italic, color: MUTED });
  const [issuer] = lines(certificate.schoolName, fonts.bold, 12, 300, 1);
  page.drawText(issuer, { x: 70, y: 72, size: 12, font: fonts.bold, color: NAVY });

  // Bottom right: the QR code of the verification URL, and the URL and the code beside it, right-aligned.
  const side = 86;
  const qrX = WIDTH - 52 - side;
  drawQr(page, certificate.verificationUrl, qrX, 52 + side, side);
  const right = qrX - 12;
  const rightAligned = (text: string, at: number, font: PDFFont, size: number, color = MUTED) =>
    page.drawText(text, { x: right - font.widthOfTextAtSize(text, size), y: at, size, font, color });
  rightAligned(words.verify, 104, fonts.italic, 9);
  let urlSize = 9;
  while (urlSize > 6 && fonts.regular.widthOfTextAtSize(certificate.verificationUrl, urlSize) > 330) urlSize -= 0.5;
  rightAligned(certificate.verificationUrl, 90, fonts.regular, urlSize, NAVY);
  rightAligned(`${words.code}: ${certificate.code}`, 72, fonts.regular, 9);

  return doc.save();
}
