/**
 * npm run soak: the topology of test/cluster/topology.ts under the mixed load of load.ts for
 * SOAK_MINUTES (10 by default). Every SOAK_SAMPLE_SECONDS (15) it notes throughput, p50/p99, errors and each
 * instance's RSS; at the end, whether memory stayed flat after the warm-up (the first fifth, at
 * least a minute): each instance's last RSS within SOAK_RSS_BOUND (10 %) of its median after
 * warm-up. Report in .test-cache/soak-report.json; exit 1 on an error or growth past the bound.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { newSchool } from './client.js';
import { MixedLoad, percentile, subscribeWebhooks, WebhookReceiver } from './load.js';
import { root, stopOnExit, Topology } from './topology.js';

const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 15);
const bound = Number(process.env.SOAK_RSS_BOUND ?? 0.1);

const rssMb = (pid: number | undefined) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return NaN;
  }
};

async function main() {
  if (process.env.CLUSTER_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'prestart'], { cwd: root, stdio: 'inherit' });
  // SOAK_READ_REPLICA=false: every instance without DATABASE_READ_URL; SOAK_BYPASS_POOLER=true: DATABASE_URL straight to the primary.
  const topology = new Topology({ readFromReplica: process.env.SOAK_READ_REPLICA !== 'false', bypassPooler: process.env.SOAK_BYPASS_POOLER === 'true' });
  stopOnExit(topology);
  const receiver = new WebhookReceiver();
  const samples: { second: number; requests: number; perSecond: number; p50: number; p99: number; errors: number; rssMb: number[] }[] = [];
  let failed = false;
  try {
    await topology.start();
    await receiver.start();
    const school = await newSchool(topology.url, topology.platformToken, 'Soak School');
    await subscribeWebhooks(topology.url, school.admin, school.schoolId, receiver);
    const load = new MixedLoad(topology.url, school.admin, { concurrency: Number(process.env.SOAK_CONCURRENCY ?? 8), writeShare: 0.2, label: 'soak' });
    await load.start(3);
    const began = performance.now();
    const all: number[] = [];
    let errors = 0;
    console.log('second  req/s    p50    p99  errors  RSS MB per instance');
    while (performance.now() - began < minutes * 60_000) {
      await sleep(sampleSeconds * 1000);
      const w = load.take();
      const sample = {
        second: Math.round((performance.now() - began) / 1000),
        requests: w.requests,
        perSecond: Math.round(w.requests / sampleSeconds),
        p50: Math.round(percentile(w.latencies, 50)),
        p99: Math.round(percentile(w.latencies, 99)),
        errors: w.failedReads + w.failedWrites,
        rssMb: topology.instances.map((i) => Math.round(rssMb(i.process?.pid))),
      };
      errors += sample.errors;
      // Kept for the whole run's percentiles: a sample of each window is enough.
      all.push(...w.latencies.filter((_, i) => i % 4 === 0));
      samples.push(sample);
      console.log(`${String(sample.second).padStart(6)} ${String(sample.perSecond).padStart(6)} ${String(sample.p50).padStart(6)} ${String(sample.p99).padStart(6)} ${String(sample.errors).padStart(7)}  ${sample.rssMb.join(' ')}${w.failures[0] ? `  first error: ${w.failures[0].why.slice(0, 120)}` : ''}`);
    }
    await load.stop();
    const warmup = Math.max(60, (minutes * 60) / 5);
    const after = samples.filter((s) => s.second > warmup);
    const flatness = topology.instances.map((_, i) => {
      const values = after.map((s) => s.rssMb[i]).sort((a, b) => a - b);
      const median = values[Math.floor(values.length / 2)] ?? NaN;
      const last = after.at(-1)?.rssMb[i] ?? NaN;
      const max = values.at(-1) ?? NaN;
      return { instance: i, medianMb: median, lastMb: last, maxMb: max, growth: Number(((last - median) / median).toFixed(3)) };
    });
    const flat = after.length > 1 && flatness.every((f) => f.growth <= bound);
    const report = {
      minutes,
      requests: samples.reduce((sum, s) => sum + s.requests, 0),
      perSecond: Math.round(samples.reduce((sum, s) => sum + s.requests, 0) / (minutes * 60)),
      p50: Math.round(percentile(all, 50)),
      p99: Math.round(percentile(all, 99)),
      errors,
      acknowledgedWrites: load.acknowledged.size,
      webhookDeliveries: receiver.deliveries.size,
      duplicateDeliveries: receiver.duplicates(),
      warmupSeconds: warmup,
      rssBound: bound,
      flatness,
      flat,
      samples,
    };
    mkdirSync(join(root, '.test-cache'), { recursive: true });
    writeFileSync(join(root, '.test-cache', 'soak-report.json'), JSON.stringify(report, null, 2) + '\n');
    const { samples: _, ...summary } = report;
    console.log(JSON.stringify(summary, null, 2));
    failed = errors > 0 || !flat;
  } finally {
    receiver.stop();
    topology.stopNow(failed);
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
