import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
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

describe('index and report say what was salvaged, and a concatenated_rows failure suggests salvage', () => {
  it('fails the file without salvage (suggesting it), then counts and names it as salvaged', () => {
    const dir = join(tmp, 'damaged');
    mkdirSync(dir);
    cpSync(join(fixturesRoot, 'errors/concatenated_rows.jsonl'), join(dir, 'two-rows.jsonl'));
    cpSync(join(fixturesRoot, 'detectors/missing_tool_use_block/positive-interleaved.jsonl'), join(dir, 'whole.jsonl'));
    const db = join(tmp, 'damaged.db');
    const env = { COLUMNS: '80' };
    const first = runCli(['index', dir, '--db', db], { env });
    expect(first.status).toBe(2);
    expect(first.stdout).toContain('failed: 1; still being written: 0; salvaged: 0;');
    expect(first.stdout).toContain(
      '  failed: two-rows.jsonl (concatenated_rows, line 2; index with --salvage, or tick salvage for its folder, to keep its complete rows)',
    );
    const before = runCli(['report', '--db', db], { env }).stdout.replaceAll(/\n +/g, ' ');
    expect(before).toContain(
      'Files: 1 read, 0 of them salvaged (read around damaged lines); 0 empty (zero bytes or blank lines); left out: 1 failed, 0 being written.',
    );
    expect(before).toContain('Files refused by code: concatenated_rows 1');
    expect(before).toContain('concatenated_rows (two rows on one line): index with --salvage, or tick salvage for their folders, to keep their complete rows.');
    const salvaged = runCli(['index', dir, '--db', db, '--salvage'], { env });
    expect(salvaged.status).toBe(0);
    expect(salvaged.stdout).toContain('failed: 0; still being written: 0; salvaged: 1;');
    const after = runCli(['report', '--db', db], { env }).stdout.replaceAll(/\n +/g, ' ');
    expect(after).toContain(
      'Files: 2 read, 1 of them salvaged (read around damaged lines); 0 empty (zero bytes or blank lines); left out: 0 failed, 0 being written.',
    );
    expect(after).not.toContain('concatenated_rows (two rows');
  });
});
