/** Settings from the environment, read once (documented in the README). */
export const config = {
  port: Number(process.env.PORT ?? 4000),
  host: process.env.HOST ?? '0.0.0.0',
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR || undefined,
  logRequests: process.env.LOG_REQUESTS !== 'false',
  maxConnections: Number(process.env.DATABASE_POOL_SIZE ?? 10),
};
