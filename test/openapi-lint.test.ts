import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderOpenApi } from '../src/tools/artifacts.js';

/**
 * The REST description as the code renders it now (not the committed file, which the staleness
 * test compares), linted by Redocly's CLI: it has no Node API of its own (the package is one
 * bundle), so it runs as a process on a temporary copy.
 */
const cli = join(createRequire(import.meta.url).resolve('@redocly/cli/package.json'), '..', 'bin', 'cli.js');
const quietly = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
}

async function lint(file: string, ...options: string[]): Promise<{ totals: { errors: number; warnings: number }; problems: Problem[] }> {
  const run = promisify(execFile);
  const args = [cli, 'lint', file, '--format=json', ...options];
  // Exit code 1 means problems were found: the JSON report says which.
  const { stdout } = await run(process.execPath, args, { env: quietly, maxBuffer: 64 * 1024 * 1024 }).catch((error) => error);
  return JSON.parse(stdout);
}

const summary = (problems: Problem[]) => problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`);

describe('the OpenAPI description', () => {
  let dir: string;
  let file: string;
  let document: any;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    file = join(dir, 'openapi.json');
    const text = await renderOpenApi();
    document = JSON.parse(text);
    writeFileSync(file, text);
    // The configuration and its ignore file (keyed by "openapi.json" beside them) go with the copy.
    for (const name of ['redocly.yaml', '.redocly.lint-ignore.yaml']) copyFileSync(join('schema', name), join(dir, name));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes Redocly lint with the recommended rules as they are, no error and no warning beyond the three listed exceptions', async () => {
    const report = await lint(file, '--config', join(dir, 'redocly.yaml'));
    expect(summary(report.problems.filter((p) => (p as Problem & { ignored?: boolean }).ignored !== true))).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0, ignored: 3 });
  });

  it('breaks the recommended rules, with no ignore file, only where schema/.redocly.lint-ignore.yaml says why', async () => {
    const report = await lint(file, '--extends=recommended');
    const unexplained = report.problems.filter(
      (p) => !(p.ruleId === 'no-ambiguous-paths' && /`\/media\/public\/\{id\}` and `\/media\/\{id\}\/(preview|launch_scorm|reprocess)`/.test(p.message)),
    );
    expect(report.totals.errors).toBe(0);
    expect(summary(unexplained)).toEqual([]);
  });

  it('has no query string in a path key, and servers, a licence and a bearer scheme applied globally', () => {
    expect(Object.keys(document.paths).filter((key) => /[?&=]/.test(key))).toEqual([]);
    expect(document.servers.map((s: { url: string }) => s.url)).toEqual(['/', '/v1']);
    expect(document.info.license.name).toBeTruthy();
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.bearer.description).toContain('Token token=');
    expect(document.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/media/public/{id}'].get.security).toEqual([]);
  });

  it('documents a query value that chooses an operation as an enum parameter of one path', () => {
    const put = document.paths['/media/{id}'].put;
    expect(put.parameters).toContainEqual(expect.objectContaining({ name: 'action', in: 'query', required: false, schema: { type: 'string', enum: ['reprocess'] } }));
    expect(put['x-graphql-field-by-query']).toEqual({ 'action=reprocess': 'reprocessMedia' });
    const byCode = document.paths['/enrollments/{id}'].get;
    expect(byCode.parameters).toContainEqual(expect.objectContaining({ name: 'find_by', in: 'query', schema: { type: 'string', enum: ['code'] } }));
  });

  it('gives an example of every request body and every reply with content', () => {
    const missing: string[] = [];
    const hasExample = (media: any) => 'example' in media || Object.keys(media.examples ?? {}).length > 0;
    for (const [path, item] of Object.entries<any>(document.paths))
      for (const [method, op] of Object.entries<any>(item)) {
        for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {}))
          if (!hasExample(media)) missing.push(`${method} ${path} request ${type}`);
        for (const [status, reply] of Object.entries<any>(op.responses)) {
          const resolved = reply.$ref ? document.components.responses[reply.$ref.split('/').pop()] : reply;
          for (const [type, media] of Object.entries<any>(resolved.content ?? {}))
            if (!hasExample(media)) missing.push(`${method} ${path} ${status} ${type}`);
        }
      }
    expect(missing).toEqual([]);
  });
});
