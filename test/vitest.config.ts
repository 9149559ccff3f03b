import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const require = createRequire(import.meta.url);

/**
 * The long files first (the fuzz test, the isolation walk, the process and browser tests): started
 * last, on a clean clone with no timing cache, one of them alone would keep a worker busy after the
 * other has finished.
 */
const SLOW = ['fuzz', 'rest.disconnect', 'isolation', 'driver-adapter', 'playground.browser', 'docs.browser', 'operations'];
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW.findIndex((name) => f.moduleId.endsWith(`/${name}.test.ts`));
      return i === -1 ? SLOW.length : i;
    };
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

export const config = defineConfig({
  // One copy of graphql for the schema and the tests ("another module or realm" otherwise).
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql/index.js') }] },
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    // test/system/: the service and the tools as processes of their own (`npm run test:system`).
    include: ['test/**/*.test.ts'],
    exclude: ['test/system/**', 'node_modules/**'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Files share each worker's loaded modules (the schema is built once per worker, not per file):
    // half the suite's time was importing the app again. Every file still gets a database of its
    // own (startService), so no data crosses files; a test must not reset modules (vi.resetModules).
    isolate: false,
    sequence: { sequencer: SlowFirst },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});

export default config;
