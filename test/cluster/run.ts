/**
 * npm run test:cluster: the topology of test/cluster/topology.ts, then its checks in order; a report
 * in .test-cache/cluster-report.json and a table on stdout. Exits 1 when a check fails. Everything
 * it started is stopped and removed however it ends.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { COURSE, CREATE_COURSE, gql, must, newSchool } from './client.js';
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
  } finally {
    report.finished = new Date().toISOString();
    mkdirSync(join(root, '.test-cache'), { recursive: true });
    writeFileSync(join(root, '.test-cache', 'cluster-report.json'), JSON.stringify(report, null, 2) + '\n');
    topology.stopNow(checks.some((c) => !c.pass));
  }
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
