// The tests run under vite (vitest's own copy, not a dependency of this package): its types for
// `import.meta.glob`, which test/artifacts.test.ts and test/isolation.test.ts use.
/// <reference path="../../node_modules/vitest/node_modules/vite/client.d.ts" />

// A fresh copy of the config module (test/graphql-limits.test.ts imports it with a query string).
declare module '*/config.js?environment=stubbed' {
  export const config: typeof import('../../src/config.js').config;
}
