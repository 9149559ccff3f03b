import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '../config.js';

/**
 * The embedded database (PGlite) is one process's at a time: a second one opening the same data
 * directory writes over the first and loses data. The service marks the directory as its own with
 * its pid while it runs, and once it listens, the address where it answers (line 2): the
 * command-line tools (token, seed) then go through the running service instead of the files.
 */
const lockFile = (dataDir: string) => join(dataDir, 'service.pid');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running service that holds `dataDir` (its pid, and its address once it listens), if one does. */
export function embeddedOwner(dataDir: string): { pid: number; url: string | null } | null {
  if (!existsSync(lockFile(dataDir))) return null;
  const [pidLine, urlLine] = readFileSync(lockFile(dataDir), 'utf8').split('\n');
  const pid = Number(pidLine.trim());
  if (!(Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid))) return null;
  return { pid, url: urlLine?.trim() || null };
}

/** Refuses with `what` when another live process holds the directory. */
export function refuseIfHeld(dataDir: string, what: string): void {
  const owner = embeddedOwner(dataDir);
  if (owner) throw new ConfigurationError(`the service (pid ${owner.pid}) holds the embedded database in ${dataDir}: ${what}`);
}

/** Marks the directory as this process's; `advertise` records where it answers, `release` lets go. */
export function holdEmbedded(dataDir: string): { advertise(url: string): void; release(): void } {
  refuseIfHeld(dataDir, 'stop it before starting another one, or set DATA_DIR to another directory');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(lockFile(dataDir), `${process.pid}\n`);
  const ours = () => existsSync(lockFile(dataDir)) && readFileSync(lockFile(dataDir), 'utf8').split('\n')[0].trim() === String(process.pid);
  return {
    // A wildcard bind answers on loopback too: tools on this machine call it there.
    advertise: (url) => ours() && writeFileSync(lockFile(dataDir), `${process.pid}\n${url.replace('//0.0.0.0', '//127.0.0.1').replace('//[::]', '//[::1]')}\n`),
    release: () => ours() && rmSync(lockFile(dataDir)),
  };
}
