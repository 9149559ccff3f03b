import { isAbsolute, relative } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { config, ConfigurationError } from '../config.js';
import { type LoggedError, loggedError } from '../http/logging.js';
import { configurationLine } from '../startup.js';

/**
 * What the command-line tools (token, seed) share: their flags and --help, the database they write
 * to named on every run, and one line for any failure (never a stack). Before opening anything they
 * run the service's own start-up check (startup.ts, checkSettings), so they refuse what it refuses
 * in its words.
 */

/** A refusal of the tool's own (a wrong grant, a failed seed step): `Error: <message>`, exit 1. */
export class CommandError extends Error {}

/**
 * The flags, or exits: `--help`/`-h` prints `usage` and exits 0; a flag the command does not take
 * (or a value missing) is one line and exit 2, the usual code for a command line not understood.
 */
export function parseFlags<const O extends NonNullable<ParseArgsConfig['options']>>(usage: string, options: O) {
  try {
    const { values } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
    if ((values as { help?: boolean }).help) {
      console.log(usage);
      process.exit(0);
    }
    return values as ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>>['values'];
  } catch (error) {
    console.error(`Error: ${(error as Error).message} (--help shows the usage)`);
    process.exit(2);
  }
}

/** A PostgreSQL URL as the tools show it: no password (said to be hidden), no query. */
function shownUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.username ? `${decodeURIComponent(u.username)}@` : ''}${u.host}${u.pathname}${u.password ? ' (password hidden)' : ''}`;
}

/**
 * The line every run of a tool starts with, naming where it writes: PostgreSQL (DATABASE_URL), the
 * embedded database's directory, or the service that holds that directory and is asked instead.
 * A token written to the wrong database is otherwise found only by a 401 later.
 */
export function databaseLine(dataDir: string, through?: { url: string; pid: number } | null): string {
  if (config.databaseUrl) return `Database: PostgreSQL ${shownUrl(config.databaseUrl)}`;
  const inside = relative(process.cwd(), dataDir);
  const dir = inside && !inside.startsWith('..') && !isAbsolute(inside) ? `./${inside}` : dataDir;
  return `Database: embedded (${dir})${through ? `, through the service running at ${through.url} (pid ${through.pid})` : ''}`;
}

/** An error as one line: its type (unless a bare Error, or PGlite's `error`) and message, then each cause's, as logs show them (no statement, no value). */
export function errorLine(error: LoggedError): string {
  const own = `${/^error$/i.test(error.type) ? '' : `${error.type}: `}${error.message}${error.code ? ` (${error.code})` : ''}`;
  return error.cause ? `${own}; cause: ${errorLine(error.cause)}` : own;
}

/** Runs a tool's main: a failure is one line on stderr and exit 1. */
export function run(main: () => Promise<void>): void {
  main().catch((error) => {
    // The service's start-up refusals (settings, key, database) in its own words; the tool's own as `Error:`.
    if (error instanceof ConfigurationError) console.error(configurationLine(error));
    else if (error instanceof CommandError) console.error(`Error: ${error.message}`);
    else console.error(`Error: ${errorLine(loggedError(error))}`);
    process.exit(1);
  });
}
