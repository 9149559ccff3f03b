import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { type MailWorker, type MailWorkerOptions, startMailWorker } from '../../src/modules/mail/index.js';
import { mails } from '../../src/modules/mail/mail.table.js';
import { dataOf } from './graphql.js';
import type { TestSchool } from './service.js';
import type { World } from './world.js';

/**
 * A real SMTP server on 127.0.0.1 for the mail tests: it parses every mail it accepts (mailparser)
 * and answers the refusals queued (a reply code each, then it accepts again).
 */
export class LoopbackSmtp {
  received: ParsedMail[] = [];
  /** Reply codes to answer the next DATA commands with instead of accepting (451, 550, ...). */
  refusals: number[] = [];
  port = 0;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, callback) => {
      simpleParser(stream).then(
        (mail) => {
          const code = this.refusals.shift();
          if (code) {
            const error = Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code });
            return callback(error);
          }
          this.received.push(mail);
          callback();
        },
        (error) => callback(error),
      );
    },
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The mails received for an address. */
  to(address: string): ParsedMail[] {
    return this.received.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((t) => t?.value.some((v) => v.address === address)));
  }
}

/** A header as sent (mailparser reshapes List-* headers; the raw line is what a provider reads). */
export function rawHeader(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase());
  return line?.line.slice(line.line.indexOf(':') + 1).trim();
}

/**
 * What a mail provider sends on a one-click unsubscribe (RFC 8058): a POST with no credential and the
 * one-click body, to the URL of a `List-Unsubscribe` header's value (`<…>`).
 */
export function clickUnsubscribe(app: FastifyInstance, listUnsubscribe: string) {
  const url = new URL(listUnsubscribe.slice(1, -1));
  return app.inject({
    method: 'POST',
    url: `${url.pathname}${url.search}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'List-Unsubscribe=One-Click',
  });
}

/** What a mail test stands on: workers pointed at `smtp`, rounds until nothing is queued, and people made through the API. */
export function mailFixtures(world: World, smtp: LoopbackSmtp) {
  const logged: { fields: Record<string, unknown>; message: string }[] = [];
  /** Milliseconds instead of minutes: three attempts. */
  const fast = (): MailWorkerOptions => ({
    smtpUrl: smtp.url,
    poll: false,
    schedule: [0, 10, 10],
    logger: { info: (fields, message) => logged.push({ fields, message }), warn: (fields, message) => logged.push({ fields, message }) },
  });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** Runs rounds of the workers (one of `fast()` by default) until no mail is queued, then stops them. */
  async function deliver(workers: MailWorker[] = [startMailWorker(world.service.database, fast())]) {
    try {
      for (let i = 0; i < 50; i++) {
        await Promise.all(workers.map((w) => w.runOnce()));
        const queued = await world.service.db.select({ id: mails.id }).from(mails).where(eq(mails.status, 'queued'));
        if (queued.length === 0) return;
        await sleep(15);
      }
      throw new Error('mails still queued');
    } finally {
      for (const w of workers) await w.stop();
    }
  }

  /** A student made by the school's admin (which writes its invitation). */
  async function student(s: TestSchool, email: string, locale?: string) {
    const data = await dataOf(s.admin, CREATE_STUDENT, { input: { fullName: `Person ${email}`, email, locale } });
    expect(data.createStudent.errors).toEqual([]);
    return Number(data.createStudent.student.id);
  }

  const mailsOf = (userId: number) => world.service.db.select().from(mails).where(eq(mails.userId, userId)).orderBy(asc(mails.id));
  return { logged, fast, deliver, student, mailsOf };
}

export const CREATE_STUDENT = `mutation ($input: PersonInput!) { createStudent(input: $input) { student { id locale } errors { field code } } }`;
