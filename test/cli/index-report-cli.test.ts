import { mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DemoTruth } from '../../fixtures/demo-corpus';
import type { ReportJson } from '../../server/cli/report-command';
import { countOf } from '../../server/query/get-rates';
import { fixturesRoot } from '../support/detector-fixtures';
import { runCli } from '../support/run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-idxcli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('index and report CLI on the bundled demo corpus', () => {
  const db = join(tmp, 'cli.db');
  const truth = JSON.parse(readFileSync(join(fixturesRoot, 'demo/truth.json'), 'utf8')) as DemoTruth;

  it('indexes, says what failed, and exits 2 because a file failed', () => {
    // The cut file is "being written" only while it is fresh (after a quiet period it fails):
    // a checkout's mtime is whenever it was made.
    const now = new Date();
    for (const f of truth.in_progress_files) utimesSync(join(fixturesRoot, 'demo/projects', f), now, now);
    const run = runCli(['index', join(fixturesRoot, 'demo/projects'), '--db', db]);
    expect(run.status).toBe(2);
    expect(run.stdout).toContain('failed: 1; still being written: 1');
    // Which file failed, and why, with its line.
    const failed = truth.failed_files[0]!;
    expect(run.stdout).toContain(`  failed: ${failed.file} (${failed.code}, line ${failed.line})`);
    expect(run.stderr).toBe(''); // no progress bar when stderr is not a terminal
  });

  it('reports per-version and per-day figures that add up to the truth', () => {
    const run = runCli(['report', '--json', '--db', db]);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as ReportJson;
    const messages = truth.cells.reduce((n, c) => n + c.assistant_messages, 0);
    expect(report.by_version.reduce((n, r) => n + r.assistant_messages, 0)).toBe(messages);
    expect(report.by_day.reduce((n, r) => n + r.assistant_messages, 0)).toBe(messages);
    expect(report.by_version.map((r) => r.key)).toEqual(['2.1.36', '2.1.37', '2.1.38', '2.1.39', '2.1.40', '2.1.41', '2.1.42']);
    const missing = countOf(report.by_version, 'missing_tool_use_block');
    expect(missing).toBe(truth.counted_by_code.missing_tool_use_block);
  });

  it('filters by version and prints a table without --json', () => {
    const run = runCli(['report', '--db', db, '--version', '2.1.40', '--code', 'missing_tool_use_block']);
    expect(run.stdout).toMatch(/^2\.1\.40 /m);
    expect(run.stdout).not.toMatch(/^2\.1\.39 /m);
    expect(run.stdout).not.toContain('empty_tool_input_with_error_result');
  });
});
