/** A job every instance runs over the shared database (a worker, a scheduler), and how to stop it. */
export interface PollingJob {
  /** One round: claims what is due (FOR UPDATE SKIP LOCKED, so instances share the work) and does it; resolves to how much it found. */
  runOnce(): Promise<number>;
  /** Stops the loop and waits for the round under way. */
  stop(): Promise<void>;
}

/** What every polling worker's options share. */
export interface PollingOptions {
  /** How often to look again when the last round found less than a batch. */
  pollIntervalMs?: number;
  /** What a round claims at most. */
  batchSize?: number;
  /** false: no polling, rounds only through runOnce (tests). Default true. */
  poll?: boolean;
  /** Unexpected errors of a round (the database gone); the loop goes on. */
  onError?: (error: unknown) => void;
}

/**
 * Runs `round` in a loop: again at once while a round finds a full batch (a backlog), else after
 * `intervalMs`. A failed round is reported to `onError` and the loop goes on. `poll: false` never
 * starts the loop (tests drive `runOnce` themselves, so no background commit lands between their
 * reads). The one loop of the service's workers: webhooks, mail, and the schedulers.
 */
export function pollingJob(
  round: () => Promise<number>,
  options: { batchSize: number; intervalMs: number; poll?: boolean; onError?: (error: unknown) => void; onStop?: () => void },
): PollingJob {
  let running: Promise<number> | null = null;
  let stopped = options.poll === false;
  let timer: NodeJS.Timeout | null = null;
  const loop = async () => {
    timer = null;
    if (stopped) return;
    let found = 0;
    try {
      running = round();
      found = await running;
    } catch (error) {
      options.onError?.(error);
    } finally {
      running = null;
    }
    if (!stopped) timer = setTimeout(loop, found >= options.batchSize ? 0 : options.intervalMs);
  };
  if (!stopped) timer = setTimeout(loop, 0);
  return {
    runOnce: round,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => {});
      options.onStop?.();
    },
  };
}
