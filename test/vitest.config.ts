import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  // One copy of graphql for the schema and the tests ("another module or realm" otherwise).
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql/index.js') }] },
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Files share each worker's loaded modules (the schema is built once per worker, not per file):
    // half the suite's time was importing the app again. Every file still gets a database of its
    // own (startService), so no data crosses files; a test must not reset modules (vi.resetModules).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
