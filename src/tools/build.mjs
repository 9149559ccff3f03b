// `npm start`'s first step (prestart): compile src/ into dist/. tsc -b prints nothing while it
// works, and a first compile takes 30 to 90 s on two cores: say so, or it looks like a hang.
// Later starts compile only what changed (nothing: about a second).
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { createRequire } from 'node:module';

const started = Date.now();
console.log('Compiling the service (tsc -b; the first start: 30 to 90 s on two cores)…');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const { status } = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.json'], { stdio: 'inherit' });
if (status !== 0) process.exit(status ?? 1);
// tsc emits only code: the files the code reads at run time (the mails' templates and translations) are copied beside it.
for (const folder of ['src/modules/mail/templates', 'src/modules/mail/locales']) cpSync(folder, `dist/${folder}`, { recursive: true });
console.log(`Compiled in ${Math.round((Date.now() - started) / 1000)} s; starting the service`);
