import { defineConfig } from 'drizzle-kit';

// Tables live beside their domain (src/modules/<domain>/*.table.ts) or their mechanism (src/db/, src/auth/, src/http/ *.table.ts); drizzle-kit reads them all.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/*.table.ts', './src/auth/*.table.ts', './src/modules/**/*.table.ts', './src/http/*.table.ts'],
  out: './schema/migrations',
  casing: 'snake_case',
});
