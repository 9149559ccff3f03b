/** Settings from the environment, read once (documented in the README). */
const port = Number(process.env.PORT ?? 4000);

export const config = {
  port,
  host: process.env.HOST ?? '0.0.0.0',
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR || undefined,
  logRequests: process.env.LOG_REQUESTS !== 'false',
  maxConnections: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  /** Where clients reach this service: the base of the links it hands out (SCORM launch URIs). */
  publicUrl: (process.env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
  /** Schools are served at `<subdomain>.<this>`; redirects may go there (and to a school's own domains). */
  schoolsBaseDomain: (process.env.SCHOOLS_BASE_DOMAIN || 'localhost').toLowerCase().replace(/^\.+/, ''),
  /** How long a SCORM launch URI stays valid. */
  scormLaunchTtlSeconds: Number(process.env.SCORM_LAUNCH_TTL_SECONDS ?? 900),
};
