import { Busboy, type BusboyInstance } from '@fastify/busboy';
import { errorCodes as fastifyErrors, type FastifyInstance } from 'fastify';
import qs from 'qs';
import { AppError } from '../graphql/errors.js';
import { parse as parseCsv } from 'csv-parse';
import { parseJsonBody, QS_OPTIONS } from './get-body.js';
import type { CsvBody } from './route-table.js';

/** Multipart limits besides Fastify's bodyLimit, which bounds every body (multipart is read whole). */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's JSON parser keeps the body's bytes in `request.rawBody`. */
    rawBody?: boolean;
    /** The route takes a `text/csv` body (route-table.ts, Route.csv). */
    csv?: CsvBody;
  }
  interface FastifyRequest {
    /** The JSON body's bytes, on a route that keeps them (FastifyContextConfig.rawBody). */
    rawBody?: Buffer;
  }
}

const MULTIPART_LIMITS = { files: 10, fields: 5000, parts: 5010 };

/**
 * Bodies: JSON (also vendor +json types), urlencoded and multipart, both with bracket names (`media[title]`),
 * on every method, GET included: Rails-era clients send their parameters that way (rest-client a
 * GET's as multipart). Fastify tests a RegExp parser against the whole header, parameters included:
 * many HTTP libraries send `application/json; charset=utf-8` (any case), so the pattern ends at the subtype.
 */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(/^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i, { parseAs: 'buffer' }, (request, body, done) => {
    // A signed callback's route keeps the bytes its signature covers (router.ts: a `rawBody` argument).
    if (request.routeOptions.config?.rawBody) request.rawBody = body as Buffer;
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (error) {
      done(error as AppError, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, qs.parse(String(body), QS_OPTIONS));
  });
  // CSV only where a route takes it (the onboarding batch): elsewhere the 415 every unknown type gets.
  app.addContentTypeParser(/^text\/csv\s*(?:;|$)/i, (request, payload, done) => {
    const csv = request.routeOptions.config?.csv;
    if (!csv) return done(new fastifyErrors.FST_ERR_CTP_INVALID_MEDIA_TYPE(String(request.headers['content-type'])), undefined);
    parseCsvBody(payload, csv, request.routeOptions.bodyLimit ?? Infinity).then((params) => done(null, params), (error: AppError) => done(error, undefined));
  });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
    parseMultipart(body as Buffer, String(request.headers['content-type'])).then((params) => done(null, params), (error: AppError) => done(error, undefined));
  });
}

const malformed = () => new AppError('bad_request', 'The multipart body is malformed');

/**
 * A form with no fields, in each client's bytes: nothing, `--B--` (browsers) or `--B\r\n--`
 * (rest-client's empty payload, which a strict parser calls truncated).
 */
function isEmptyForm(body: Buffer, contentType: string): boolean {
  const text = body.toString('latin1').trim();
  if (text === '') return true;
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const b = boundary?.[1] ?? boundary?.[2];
  return !!b && [`--${b}--`, `--${b}\r\n--`, `--${b}\n--`].includes(text);
}

/** A multipart body as params: fields keep their bracket names until qs expands them; a file part is its bytes. */
export function parseMultipart(body: Buffer, contentType: string): Promise<Record<string, unknown>> {
  if (isEmptyForm(body, contentType)) return Promise.resolve({});
  return new Promise((resolve, reject) => {
    const fields: Record<string, unknown[]> = {};
    const add = (name: string, value: unknown) => (fields[name] ??= []).push(value);
    let parser: BusboyInstance;
    try {
      parser = new Busboy({ headers: { 'content-type': contentType }, limits: MULTIPART_LIMITS });
    } catch {
      return reject(malformed()); // no boundary
    }
    const tooLarge = () => reject(new AppError('payload_too_large', 'The body has too many parts'));
    parser.on('field', (name, value) => add(name, value));
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', () => reject(malformed()));
      stream.on('end', () => add(name, Buffer.concat(chunks)));
    });
    parser.on('partsLimit', tooLarge).on('filesLimit', tooLarge).on('fieldsLimit', tooLarge);
    parser.on('error', () => reject(malformed()));
    parser.on('finish', () => {
      const flat = Object.fromEntries(Object.entries(fields).map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
      resolve(qs.parse(flat as Record<string, string>, QS_OPTIONS));
    });
    parser.end(body);
  });
}

/** The most records a CSV body may hold: the batch's limit and one more, so the operation names the excess. */
const CSV_MAX_RECORDS = 1001;

/**
 * A CSV body read as it streams (csv-parse): the header row names the columns, each record becomes
 * the route's hash (`csv.row`), and the list goes under `csv.key`. It stops at the body limit or past
 * the record limit (413) without reading on, and a malformed table is a 400 naming its line.
 */
async function parseCsvBody(payload: NodeJS.ReadableStream, csv: CsvBody, bodyLimit: number): Promise<Record<string, unknown>> {
  const parser = parseCsv({ columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()), bom: true, trim: true, skip_empty_lines: true, max_record_size: 64 * 1024 });
  let bytes = 0;
  let failure: AppError | null = null;
  const stop = (error: AppError) => {
    failure ??= error;
    payload.unpipe(parser);
    parser.end();
  };
  payload.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > bodyLimit) stop(new AppError('payload_too_large', 'The body is too large'));
  });
  payload.pipe(parser);
  const items: Record<string, unknown>[] = [];
  try {
    for await (const record of parser) {
      if (failure) break;
      if (items.length === CSV_MAX_RECORDS) {
        stop(new AppError('payload_too_large', `A CSV body holds at most ${CSV_MAX_RECORDS - 1} records`));
        break;
      }
      // An empty cell is a column not given.
      const given = Object.fromEntries(Object.entries(record as Record<string, string>).filter(([, v]) => v !== ''));
      items.push(csv.row(given));
    }
  } catch (error) {
    throw failure ?? new AppError('bad_request', `The CSV body is malformed: ${(error as Error).message}`);
  }
  if (failure) throw failure;
  return { [csv.key]: items };
}
