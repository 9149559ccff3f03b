import cluster, { type Worker } from 'node:cluster';

/**
 * Several processes behind one port (node:cluster): the primary forks `count` workers that each run
 * the whole service and accept connections in turn. The service keeps nothing in one process's memory
 * that another needs (credentials, rate limits, events and webhooks all live in PostgreSQL), so a
 * worker is one more instance behind a load balancer. A worker that dies is replaced; one that dies
 * before it ever listened stops everything (a start-up error would only repeat). SIGTERM or SIGINT
 * stops every worker gracefully and exits 0 once all have exited cleanly, 1 otherwise.
 */
export function superviseWorkers(count: number, options: { say: Record<'info' | 'warn', (line: string) => void>; stopTimeoutMs: number }): void {
  const { say, stopTimeoutMs } = options;
  let stopping = false;
  let failed = false;
  const listened = new WeakSet<Worker>();

  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => listened.add(worker));
  };

  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    say.info(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} worker(s)`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    // The workers give up on requests in flight after their own timeout: a little longer, then none is waited for.
    setTimeout(() => {
      say.warn(`Workers still running ${stopTimeoutMs + 2000} ms after ${signal}: stopping them`);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, stopTimeoutMs + 2000).unref();
  };

  cluster.on('exit', (worker, code, signal) => {
    if (!stopping && !listened.has(worker)) {
      say.warn(`A worker exited (${signal ?? code}) before it listened: stopping`);
      failed = true;
      stopAll('SIGTERM');
    } else if (!stopping) {
      say.warn(`Worker ${worker.process.pid} exited (${signal ?? code}): starting another`);
      fork();
    } else if (code !== 0) {
      failed = true;
    }
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) process.exit(failed ? 1 : 0);
  });
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  process.on('SIGINT', () => stopAll('SIGINT'));
  for (let i = 0; i < count; i++) fork();
}
