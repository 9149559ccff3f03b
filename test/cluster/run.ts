/**
 * npm run test:cluster: the topology of test/cluster/topology.ts, then its checks in order; a report
 * in .test-cache/cluster-report.json and a table on stdout. Exits 1 when a check fails. Everything
 * it started is stopped and removed however it ends.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { COURSE, CREATE_COURSE, gql, must, newSchool } from './client.js';
import { MixedLoad, percentile, subscribeWebhooks, WebhookReceiver, type Window } from './load.js';
import { root, stopOnExit, Topology, waitFor } from './topology.js';

interface Check {
  name: string;
  pass: boolean;
  detail: Record<string, unknown>;
}
const checks: Check[] = [];
const report: Record<string, unknown> = { started: new Date().toISOString(), checks };

async function check(name: string, body: () => Promise<Record<string, unknown>>) {
  const started = performance.now();
  try {
    const detail = await body();
    checks.push({ name, pass: detail.pass !== false, detail: { ...detail, ms: Math.round(performance.now() - started) } });
  } catch (error) {
    checks.push({ name, pass: false, detail: { error: String((error as Error).stack ?? error), ms: Math.round(performance.now() - started) } });
  }
  const last = checks.at(-1)!;
  console.log(`${last.pass ? 'ok  ' : 'FAIL'} ${name} ${JSON.stringify(last.detail).slice(0, 300)}`);
}

async function main() {
  if (process.env.CLUSTER_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'prestart'], { cwd: root, stdio: 'inherit' });
  const topology = new Topology();
  stopOnExit(topology);
  try {
    const started = performance.now();
    await topology.start();
    report.startMs = Math.round(performance.now() - started);
    report.ports = topology.ports;
    console.log(`topology up in ${report.startMs} ms: HAProxy ${topology.url}, PgBouncer :${topology.ports.bouncer}, primary :${topology.ports.primary}, replica :${topology.ports.replica}`);
    const { url, platformToken, instances } = topology;
    const school = await newSchool(url, platformToken, 'Cluster School');

    await check('smoke: a course created through HAProxy reads back on every instance', async () => {
      const made = await must(url, school.admin, CREATE_COURSE, { input: { name: 'Through the balancer' } });
      const id = made.createCourse.course.id;
      const names: string[] = [];
      for (const instance of instances) names.push((await must(instance.url, school.admin, COURSE, { id })).course.name);
      return { pass: names.every((n) => n === 'Through the balancer'), id, names };
    });

    await check('NOTIFY through the pooler: a revoked token is refused at once by the other instances (credential cache: 15 s)', async () => {
      const made = await must(instances[0].url, school.admin, `mutation { createApiToken(input: { role: admin, label: "notify" }) { token apiToken { id } errors { code } } }`);
      const token = made.createApiToken.token as string;
      // Every instance checks it once, so each has it cached.
      for (const instance of instances) await must(instance.url, token, '{ __typename }');
      await must(instances[0].url, school.admin, `mutation ($id: ID!) { revokeApiToken(id: $id) { errors { code } } }`, { id: made.createApiToken.apiToken.id });
      const refusedAfter: number[] = [];
      for (const instance of instances.slice(1)) {
        refusedAfter.push(Math.round(await waitFor(`revocation on instance ${instance.index}`, async () => (await gql(instance.url, token, '{ __typename }')).status === 401, 5000, 20)));
      }
      return { refusedAfterMs: refusedAfter };
    });

    await check('read-your-writes across instances: written through one, read at once through another (GraphQL and REST), reads served by the replica', async () => {
      const replica = postgres(topology.replicaUrl, { max: 1, onnotice: () => {} });
      const fetched = async () => Number((await replica`select tup_fetched + tup_returned as n from pg_stat_database where datname = 'lp'`)[0].n);
      try {
        let stale = 0;
        const rounds = 60;
        const before = await fetched();
        for (let round = 0; round < rounds; round++) {
          const [writer, reader] = [instances[round % instances.length], instances[(round + 1) % instances.length]];
          const name = `ryw ${round}`;
          const id = (await must(writer.url, school.admin, CREATE_COURSE, { input: { name } })).createCourse.course.id;
          const read = round % 2 ? (await gql(reader.url, school.admin, COURSE, { id })).data?.course?.name : ((await (await fetch(`${reader.url}/courses/${id}`, { headers: { authorization: `Bearer ${school.admin}` } })).json()) as { name?: string }).name;
          if (read !== name) stale += 1;
        }
        // Reads of a credential that wrote nothing lately: the replica's.
        const reader = (await newSchool(url, platformToken, 'Reader School')).admin;
        await sleep(500);
        const quiet = await fetched();
        for (let i = 0; i < 30; i++) await must(instances[i % instances.length].url, reader, '{ courses(first: 5) { nodes { id } } }');
        const replicaReads = (await fetched()) - quiet;
        return { pass: stale === 0 && replicaReads > 0, rounds, stale, replicaTuplesDuringWrites: quiet - before, replicaTuplesForQuietReads: replicaReads };
      } finally {
        await replica.end();
      }
    });

    // Faults under a mixed load through HAProxy.
    const receiver = new WebhookReceiver();
    await receiver.start();
    try {
      const loadSchool = await newSchool(url, platformToken, 'Load School');
      await subscribeWebhooks(url, loadSchool.admin, loadSchool.schoolId, receiver);
      const concurrency = Number(process.env.CLUSTER_CONCURRENCY ?? 8);
      const load = new MixedLoad(url, loadSchool.admin, { concurrency, writeShare: 0.3, label: 'load' });
      await load.start(3);
      await sleep(3000);
      const warm = load.take();
      report.baseline = { requests: warm.requests, failed: warm.failedReads + warm.failedWrites, p50: percentile(warm.latencies, 50), p99: percentile(warm.latencies, 99) };
      const faults: Record<string, unknown>[] = [];
      report.faults = faults;

      const fault = async (name: string, act: () => Promise<void>, holdMs: number, recover: () => Promise<void>, rule: (w: Window, inFlight: number, recoveryMs: number) => boolean, during?: () => Promise<Record<string, unknown>>) => {
        await check(`fault: ${name}`, async () => {
          load.take();
          const at = performance.now() - load.started;
          const inFlight = load.inFlight;
          await act();
          const extra = during ? await during() : {};
          await sleep(holdMs);
          await recover();
          await sleep(2000);
          const w = load.take();
          const recoveryMs = w.failures.length ? Math.max(...w.failures.map((f) => f.at)) - Math.round(at) : 0;
          const row = {
            fault: name,
            requests: w.requests,
            failedReads: w.failedReads,
            failedWrites: w.failedWrites,
            inFlightAtFault: inFlight,
            recoveryMs,
            p50: Math.round(percentile(w.latencies, 50)),
            p99: Math.round(percentile(w.latencies, 99)),
            failures: w.failures.slice(0, 5),
            retriedReads: w.retried.length,
            retriedWhy: w.retried.slice(0, 3),
            ...extra,
          };
          faults.push(row);
          return { pass: rule(w, inFlight, recoveryMs) && extra.pass !== false, ...row };
        });
      };
      // Only requests in flight at the fault may fail (reads are retried, so none of them); recovery is reported, not bounded (a shared machine).
      const onlyInFlight = (window: Window, inFlight: number) => window.failedReads === 0 && window.failedWrites <= inFlight;
      const none = (window: Window) => window.failedReads + window.failedWrites === 0;

      await fault('kill -9 one instance', async () => topology.killInstance(1), 3000, () => topology.startInstance(1), onlyInFlight);
      await fault('restart PgBouncer', () => topology.restartBouncer(), 1000, async () => {}, onlyInFlight);
      await fault('stop the replica', async () => topology.stopReplica(), 3000, () => topology.startReplica(), none);
      const replica = postgres(topology.replicaUrl, { max: 1, onnotice: () => {} });
      try {
        await fault(
          'replica lag (replay paused 4 s)',
          async () => void (await replica`select pg_wal_replay_pause()`),
          0,
          async () => void (await replica`select pg_wal_replay_resume()`),
          none,
          async () => {
            // Read-your-writes while the replica falls behind: written through one instance, read at once through another.
            let stale = 0;
            const until = performance.now() + 4000;
            let rounds = 0;
            for (; performance.now() < until; rounds++) {
              const [writer, reader] = [instances[rounds % 3], instances[(rounds + 1) % 3]];
              const id = (await must(writer.url, school.admin, CREATE_COURSE, { input: { name: `lag ${rounds}` } })).createCourse.course.id;
              if ((await gql(reader.url, school.admin, COURSE, { id })).data?.course?.name !== `lag ${rounds}`) stale += 1;
            }
            return { pass: stale === 0, rywRounds: rounds, rywStale: stale };
          },
        );
      } finally {
        await replica.end();
      }
      await load.stop();

      await check('no acknowledged write lost; every webhook delivered, duplicates counted', async () => {
        const primary = postgres(topology.directUrl, { max: 1, onnotice: () => {} });
        try {
          const ids = [...load.acknowledged.keys()].map(Number);
          const [{ n: found }] = await primary`select count(*)::int as n from courses where id = any(${ids})`;
          const [{ n: events }] = await primary`select count(*)::int as n from domain_events where name = 'course.created' and school_id = ${Number(loadSchool.schoolId)}`;
          // Deliveries drain after the load: every event at least once, or still owed (a failed attempt waits for its retry).
          const drainMs = await waitFor('webhook deliveries', async () => receiver.deliveries.size >= events, 30_000, 200).catch(() => -1);
          const [{ n: owed }] = await primary`select count(*)::int as n from webhook_deliveries where status = 'pending' and school_id = ${Number(loadSchool.schoolId)}`;
          const [{ n: abandoned }] = await primary`select count(*)::int as n from webhook_deliveries where status = 'failed' and school_id = ${Number(loadSchool.schoolId)}`;
          const result = {
            deliveriesOwed: owed,
            deliveriesAbandoned: abandoned,
            acknowledgedWrites: ids.length,
            lostWrites: ids.length - found,
            events,
            delivered: receiver.deliveries.size,
            duplicateDeliveries: receiver.duplicates(),
            drainMs: Math.round(drainMs),
            subscriptionEvents: load.subscribed.size,
          };
          report.totals = result;
          return { pass: result.lostWrites === 0 && abandoned === 0 && receiver.deliveries.size + owed >= events, ...result };
        } finally {
          await primary.end();
        }
      });
    } finally {
      receiver.stop();
    }

    await check('the suite through PgBouncer in transaction mode: every file\'s service without named statements, LISTEN on a direct session', async () => {
      const outputFile = join(root, '.test-cache', 'cluster-suite.json');
      mkdirSync(dirname(outputFile), { recursive: true });
      const run = spawnSync('npx', ['vitest', 'run', '--config', 'test/vitest.config.ts', '--reporter=dot', '--reporter=json', `--outputFile.json=${outputFile}`], {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, TEST_DATABASE_URL: topology.directUrl.replace(/\/lp$/, '/postgres'), TEST_DATABASE_POOLER_URL: topology.bouncerUrl.replace(/\/lp$/, '/') },
      });
      const result = JSON.parse(readFileSync(outputFile, 'utf8')) as { numTotalTestSuites: number; numPassedTests: number; numFailedTests: number; numPendingTests: number; testResults: { name: string; status: string }[] };
      const failedFiles = result.testResults.filter((r) => r.status !== 'passed').map((r) => r.name.replace(root + '/', ''));
      return { pass: run.status === 0 && result.numFailedTests === 0, files: result.testResults.length, passedTests: result.numPassedTests, failedTests: result.numFailedTests, skippedTests: result.numPendingTests, failedFiles };
    });
  } finally {
    report.finished = new Date().toISOString();
    mkdirSync(join(root, '.test-cache'), { recursive: true });
    writeFileSync(join(root, '.test-cache', 'cluster-report.json'), JSON.stringify(report, null, 2) + '\n');
    topology.stopNow(checks.some((c) => !c.pass));
  }
  if (Array.isArray(report.faults) && report.faults.length) {
    console.log('\nfault'.padEnd(36) + 'requests  failed(r/w)  in flight  recovery ms    p50    p99  retried reads');
    for (const f of report.faults as Record<string, number | string>[])
      console.log(String(f.fault).padEnd(35) + String(f.requests).padStart(8) + `${f.failedReads}/${f.failedWrites}`.padStart(13) + String(f.inFlightAtFault).padStart(11) + String(f.recoveryMs).padStart(13) + String(f.p50).padStart(7) + String(f.p99).padStart(7) + String(f.retriedReads).padStart(15));
  }
  if (report.totals) console.log('\ntotals ' + JSON.stringify(report.totals));
  console.log('\ncheck'.padEnd(90) + 'result');
  for (const c of checks) console.log(c.name.slice(0, 88).padEnd(90) + (c.pass ? 'pass' : 'FAIL'));
  const failed = checks.filter((c) => !c.pass).length;
  console.log(failed ? `\n${failed} check(s) failed (.test-cache/cluster-report.json)` : `\nall ${checks.length} checks passed (.test-cache/cluster-report.json)`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
