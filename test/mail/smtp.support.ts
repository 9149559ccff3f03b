import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

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
