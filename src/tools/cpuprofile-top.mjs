#!/usr/bin/env node
/**
 * The top self-time entries of a V8 .cpuprofile (node --cpu-prof), aggregated by function and
 * script: `node src/tools/cpuprofile-top.mjs <file.cpuprofile> [count=25] [--by=url]`.
 * Shares are of the profile's samples (idle and GC included, as V8 names them), so two profiles
 * taken on a busy machine compare by share, not by milliseconds. `--callers=<name>` lists instead
 * who calls the functions named <name>, or of scripts whose path holds <name> when it has a
 * slash (`--callers=drizzle-orm/`): the first frame outside them, by the self time below them.
 * `--after=<seconds>` counts only the samples taken that long after the profile began (start-up left out).
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const byUrl = args.includes('--by=url');
const callersOf = args.find((a) => a.startsWith('--callers='))?.slice('--callers='.length);
const afterMicros = Number(args.find((a) => a.startsWith('--after='))?.slice('--after='.length) ?? 0) * 1e6;
const [file, count = '25'] = args.filter((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: node src/tools/cpuprofile-top.mjs <file.cpuprofile> [count] [--by=url]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
// Each sample's time is the gap to the next one.
const selfMicros = new Map();
const { samples, timeDeltas } = profile;
let elapsed = 0;
for (let i = 0; i < samples.length; i++) {
  const delta = timeDeltas[i + 1] ?? 0;
  elapsed += timeDeltas[i] ?? 0;
  if (elapsed < afterMicros) continue;
  selfMicros.set(samples[i], (selfMicros.get(samples[i]) ?? 0) + delta);
}
const shorten = (url) => {
  if (!url) return '(native)';
  const at = url.indexOf('node_modules/');
  if (at !== -1) return url.slice(at + 'node_modules/'.length);
  const dist = url.indexOf('/dist/');
  if (dist !== -1) return url.slice(dist + 1);
  return url.replace(/^file:\/\//, '');
};
const totals = new Map();
let total = 0;
let idle = 0;
for (const [id, micros] of selfMicros) {
  const { callFrame } = nodes.get(id);
  const name = callFrame.functionName || '(anonymous)';
  if (name === '(idle)') {
    idle += micros;
    total += micros;
    continue;
  }
  const key = byUrl ? shorten(callFrame.url) : `${name}  ${shorten(callFrame.url)}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`;
  totals.set(key, (totals.get(key) ?? 0) + micros);
  total += micros;
}
const busy = total - idle;
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (shares below are of busy time)`);
const rows = [...totals].sort((a, b) => b[1] - a[1]).slice(0, Number(count));
for (const [key, micros] of rows) console.log(`${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${key}`);

if (callersOf) {
  // Self time of every node, attributed to the nearest ancestor frame not named callersOf.
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const below = new Map();
  let under = 0;
  for (const [id, micros] of selfMicros) {
    let at = id;
    let inside = false;
    while (at !== undefined) {
      const { functionName, url } = nodes.get(at).callFrame;
      if (functionName === callersOf || (callersOf.includes('/') && url.includes(callersOf))) inside = true;
      else if (inside) break;
      at = parent.get(at);
    }
    if (!inside || at === undefined) continue;
    under += micros;
    const { callFrame } = nodes.get(at);
    const key = `${callFrame.functionName || '(anonymous)'}  ${shorten(callFrame.url)}:${callFrame.lineNumber + 1}`;
    below.set(key, (below.get(key) ?? 0) + micros);
  }
  console.log(`\ncallers of ${callersOf}: ${((100 * under) / busy).toFixed(1)}% of busy time below it`);
  for (const [key, micros] of [...below].sort((a, b) => b[1] - a[1]).slice(0, Number(count)))
    console.log(`${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${key}`);
}
