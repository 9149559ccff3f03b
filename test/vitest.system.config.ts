import { defineConfig } from 'vitest/config';
import { config } from './vitest.config.js';

/**
 * `npm run test:system`: the files that start the service or the tools as processes of their own
 * (start-up, signals, workers, the command-line tools), each process loading the code anew. They
 * take minutes, so `npm test` leaves them out; .ci/run runs them after it, on both databases.
 */
export default defineConfig({
  ...config,
  test: { ...config.test, include: ['test/system/**/*.test.ts'], exclude: ['node_modules/**'], sequence: {} },
});
