import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '../config.js';

/**
 * The embedded database (PGlite) is one process's at a time: a second one opening the same data
 * directory writes over the first and loses data. The service marks the directory as its own with
 * its pid while it runs; whoever else finds a live pid there stops with a clear message.
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

/** The pid of the running service that holds `dataDir`, if one does. */
export function embeddedOwner(dataDir: string): number | null {
  if (!existsSync(lockFile(dataDir))) return null;
  const pid = Number(readFileSync(lockFile(dataDir), 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}

/** Refuses with `what` when another live process holds the directory. */
export function refuseIfHeld(dataDir: string, what: string): void {
  const owner = embeddedOwner(dataDir);
  if (owner) throw new ConfigurationError(`the service (pid ${owner}) holds the embedded database in ${dataDir}: ${what}`);
}

/** Marks the directory as this process's; the returned function releases it. */
export function holdEmbedded(dataDir: string): () => void {
  refuseIfHeld(dataDir, 'stop it before starting another one, or set DATA_DIR to another directory');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(lockFile(dataDir), `${process.pid}\n`);
  return () => {
    if (existsSync(lockFile(dataDir)) && readFileSync(lockFile(dataDir), 'utf8').trim() === String(process.pid)) rmSync(lockFile(dataDir));
  };
}
