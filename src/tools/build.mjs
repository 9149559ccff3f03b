// `npm start`'s first step (prestart): compile src/ into dist/ (tsc -b), then bundle the compiled
// service into dist/bundle/ (esbuild), which `npm start` runs. tsc -b prints nothing while it works,
// and a first compile takes 30 to 90 s on two cores: say so, or it looks like a hang. Later starts
// compile only what changed (nothing: about a second); the bundle takes a few seconds.
//
// Why a bundle: started from dist/src/, Node resolves each of some thousand modules through its
// package's `exports` and reads each file on its own (about a quarter of the start-up in a CPU
// profile); from the bundle it reads a few files. The command-line tools (dist/src/tools/) and the
// tests keep to the unbundled output.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';

const started = Date.now();
console.log('Compiling the service (tsc -b; the first start: 30 to 90 s on two cores)…');
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const { status } = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.json'], { stdio: 'inherit' });
if (status !== 0) process.exit(status ?? 1);
// tsc emits only code: the files the code reads at run time (the mails' templates and translations) are copied beside it.
for (const folder of ['src/modules/mail/templates', 'src/modules/mail/locales']) cpSync(folder, `dist/${folder}`, { recursive: true });

const root = process.cwd();
const compiled = resolve(root, 'dist/src');
const outdir = resolve(root, 'dist/bundle');
/**
 * Packages left out of the bundle, loaded from node_modules as before: native code and WebAssembly
 * with the files beside them (argon2's binary, PGlite's wasm and data).
 */
const external = ['@node-rs/argon2', '@electric-sql/pglite', '@electric-sql/pglite/*'];

/**
 * The service's own modules find files relative to themselves (import.meta.url: the mails'
 * templates, package.json above them); in the bundle each keeps its own dist/src/ address. An
 * optional peer a package imports only when installed (class-validator, ws's bufferutil) stays
 * an import, failing only where it would have failed unbundled.
 */
const paths = {
  name: 'service-paths',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'probe') return undefined;
      const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'probe' });
      return found.errors.length ? { path: args.path, external: true } : found;
    });
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(compiled + '/')) return undefined;
      const text = readFileSync(args.path, 'utf8');
      const own = `new URL(${JSON.stringify(relative(outdir, args.path))}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', own), loader: 'js', resolveDir: resolve(args.path, '..') };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
try {
  // esbuild comes with tsx (a devDependency, as typescript is).
  const esbuild = createRequire(require.resolve('tsx/package.json'))('esbuild');
  await esbuild.build({
    entryPoints: { service: 'dist/src/main.js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // What the service imports only where it is needed (the PDF library, the password dictionary, the
    // playground's page, ...) stays in files of its own, read at its first use.
    splitting: true,
    outdir,
    // type-graphql names GraphQL types after their classes: the names must stay as written.
    keepNames: true,
    external,
    // The CommonJS packages inside the bundle require Node's own modules.
    banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
    plugins: [paths],
    logLevel: 'error',
    legalComments: 'none',
  });
  // keepNames wraps every named function with esbuild's `__name`, a defineProperty at each call:
  // also the functions Fastify declares inside its per-request hook runners, several times a
  // request (4 % of a busy profile of `{ __typename }`). A function already named as written is
  // left as it is; only one the bundle renamed gets its name back, as keepNames means.
  // Inside the packages' code, an arrow function is left without the name it was assigned to (a
  // minified package's arrows have none either): Fastify creates one per request
  // (`onResFinished`, 2 % of that profile). Classes and functions keep theirs; the service's own
  // code keeps every name.
  const helper = 'var __name = (target, value) => __defProp(target, "name", { value, configurable: true });';
  const guarded = `var __name = (target, value) => target.name === value ? target : __defProp(target, "name", { value, configurable: true });
__name.library = (target, value) => target.name === "" && target.prototype === undefined ? target : __name(target, value);`;
  let helpers = 0;
  for (const file of readdirSync(outdir).filter((name) => name.endsWith('.js'))) {
    let text = readFileSync(resolve(outdir, file), 'utf8');
    if (text.includes(helper)) {
      text = text.replace(helper, guarded);
      helpers += 1;
    }
    writeFileSync(resolve(outdir, file), inPackages(text, (line) => line.replaceAll('__name(', '__name.library(')));
  }
  if (helpers !== 1) console.warn(`esbuild's __name helper found in ${helpers} files (expected 1): names are kept the slower way`);
  // What npm start runs: Node's compile cache on before the bundle's first file is compiled (main.ts
  // turns it on too, but only after its own imports, which in the bundle are most of the service).
  writeFileSync(resolve(outdir, 'main.js'), "import module from 'node:module';\nmodule.enableCompileCache?.();\nawait import('./service.js');\n");
} catch (error) {
  // Without the bundle the service still starts, from dist/src/ (slower to start): say why.
  console.warn(`Bundling failed (${error.message.split('\n')[0]}); the service starts unbundled`);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  writeFileSync(resolve(outdir, 'main.js'), "import '../src/main.js';\n");
}
console.log(`Compiled in ${Math.round((Date.now() - started) / 1000)} s; starting the service`);

/**
 * Rewrites the lines of a bundle file that belong to packages (esbuild heads each module's code
 * with a `// node_modules/…` comment; the service's own modules have `// dist/src/…`).
 */
function inPackages(text, rewrite) {
  let inPackage = false;
  return text
    .split('\n')
    .map((line) => {
      const module = /^\/\/ (node_modules|dist)\//.exec(line);
      if (module) inPackage = module[1] === 'node_modules';
      return inPackage && line.includes('__name(') ? rewrite(line) : line;
    })
    .join('\n');
}
