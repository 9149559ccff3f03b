import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { artifactPath, artifacts } from './artifacts.js';

/** npm run schema:write — regenerates schema/schema.graphql and schema/openapi.json from the code. */
for (const { file, render } of Object.values(artifacts)) {
  const path = artifactPath(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, await render());
  console.log(`wrote ${file}`);
}
