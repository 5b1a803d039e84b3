import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScan, type ScanReport } from '../../server/cli/scan-command';
import { fixturesRoot } from '../support/detector-fixtures';
import { runCli } from '../support/run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const missingDir = join(fixturesRoot, 'detectors/missing_tool_use_block');
const emptyDir = join(fixturesRoot, 'detectors/empty_tool_input_with_error_result');

describe('scan CLI', () => {
  it('prints the documented JSON shape, sorted by file then line, and exits 1 on findings', () => {
    const run = runCli(['scan', '--json', missingDir]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as ScanReport;
    expect(Object.keys(report)).toEqual(['findings', 'errors', 'summary', 'diagnostics']);
    expect(report.summary).toEqual({
      assistant_messages_checked: 10,
      files_scanned: 8,
      files_failed: 0,
      files_in_progress: 0,
      findings: 5,
      symlinks_skipped: 0,
      files_empty: 0,
      // The fixture folder's expected.json: a walked .json that is not a transcript.
      files_passed_over: 1,
      files_read_by_format: { transcript: 8 },
      files_read_by_agent: { 'claude-code': 8 },
      files_refused_by_code: {},
    });
    expect(report.findings.map((f) => `${f.file}:${f.lines.join('-')}`)).toEqual([
      'positive-interleaved.jsonl:2-7',
      'positive-split-rows-stop-on-last.jsonl:2-3',
      'positive-stop-on-every-row.jsonl:2-3',
      'same-id-two-files/agent-copy.jsonl:3-3',
      'same-id-two-files/session.jsonl:2-2',
    ]);
    expect(report.findings[0]).toEqual({
      agent: 'claude-code',
      block_types: ['text', 'thinking'],
      code: 'missing_tool_use_block',
      evidence_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      file: 'positive-interleaved.jsonl',
      lines: [2, 7],
      model: 'claude-opus-4-8',
      signed_thinking: true,
      source_lines: [2, 7],
    });
  });

  it('exits 0 with no findings and no errors, and prints a readable table without --json', () => {
    const run = runCli(['scan', join(emptyDir, 'negative-empty-input-no-result.jsonl')]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('No findings.');
    expect(run.stdout).toContain('files scanned: 1, failed: 0');
  });

  it('exits 2 when any file fails, even with findings, and lists the error', () => {
    const dir = join(tmp, 'mixed');
    mkdirSync(dir);
    cpSync(join(missingDir, 'positive-interleaved.jsonl'), join(dir, 'a.jsonl'));
    cpSync(join(fixturesRoot, 'errors/duplicate_key.jsonl'), join(dir, 'b.jsonl'));
    const run = runCli(['scan', dir]);
    expect(run.status).toBe(2);
    expect(run.stdout).toMatch(/b\.jsonl\s+2\s+duplicate_key/);
    expect(run.stdout).toContain('missing_tool_use_block');
  });

  it('exits 2 without scanning for a missing input, naming it by position only', () => {
    const run = runCli(['scan', missingDir, join(tmp, 'no-such-dir')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('error: input 2 of 2 does not exist\n');
    expect(run.stdout).toBe('');
  });

  it('exits 2 on a usage error (no path)', () => {
    expect(runCli(['scan']).status).toBe(2);
  });
});

describe('scan output fits COLUMNS', () => {
  // Long names under a deep folder, findings with a tool and error kind, a failed and a salvageable file.
  const dir = join(tmp, 'fit');
  const deep = join(dir, 'project-with-a-long-name', 'session-0123456789abcdef');
  mkdirSync(deep, { recursive: true });
  cpSync(join(fixturesRoot, 'detectors/unparseable_tool_input'), deep, { recursive: true });
  cpSync(join(missingDir, 'positive-interleaved.jsonl'), join(dir, 'short.jsonl'));
  cpSync(join(fixturesRoot, 'errors/concatenated_rows.jsonl'), join(dir, 'two-rows-on-one-line.jsonl'));
  cpSync(join(fixturesRoot, 'errors/duplicate_key.jsonl'), join(dir, 'duplicate.jsonl'));
  const json = JSON.parse(runCli(['scan', '--json', dir]).stdout) as ScanReport;

  it.each([80, 200])('at COLUMNS=%i: one line per finding (file cut in the middle), every line within the width, no colour off a terminal', (columns) => {
    for (const options of [[], ['--salvage']]) {
      const run = runCli(['scan', ...options, dir], { env: { COLUMNS: String(columns), FORCE_COLOR: '', NO_COLOR: '' } });
      expect(run.status).toBe(2);
      const lines = run.stdout.split('\n');
      expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(columns);
      expect(run.stdout).not.toContain('\x1b');
      // The header, its rule, then one line per finding in the JSON's order.
      expect(lines[0]).toMatch(/^file +lines +code +version +day +model +tool +error/);
      const rows = lines.slice(2, 2 + json.findings.length);
      expect(lines[2 + json.findings.length]).toBe('');
      json.findings.forEach((f, i) => {
        const row = rows[i]!;
        // The start and the end of the file name are kept; the middle gives way when the line is too long.
        expect(row.startsWith(f.file.slice(0, 4))).toBe(true);
        expect(row.split(/ +/)[0]!.endsWith(f.file.slice(-6))).toBe(true);
        expect(row).toContain(` ${f.lines[0] === f.lines[1] ? f.lines[0] : f.lines.join('-')} `);
        if (columns === 200) {
          expect(row.startsWith(`${f.file} `)).toBe(true);
          expect(row).toContain(` ${f.code} `);
          expect(row).toContain(` ${f.model} `);
        }
      });
      if (columns === 200) {
        const [tool] = rows.filter((r) => r.includes('unparseable_tool_input') && / Read +other$/.test(r));
        expect(tool).toMatch(/ 2\.1\.209 +2026-07-20 +claude-sonnet-5 +Read +other$/);
      }
      // A concatenated_rows failure says what keeps its rows; salvaged, it is listed as such.
      if (options.length === 0)
        expect(run.stdout.replaceAll(/\n +/g, ' ')).toContain('concatenated_rows (two rows on one line): scan --salvage keeps their complete rows.');
      else expect(run.stdout).toMatch(/^two-rows-on-one-line\.jsonl +2 +concatenated_rows +2 +no$/m);
    }
  });

  it('colours the codes with FORCE_COLOR, never with NO_COLOR, and --json is never coloured', () => {
    expect(runCli(['scan', dir], { env: { FORCE_COLOR: '1', NO_COLOR: '', COLUMNS: '200' } }).stdout).toContain('\x1b[33munparseable_tool_input\x1b[39m');
    expect(runCli(['scan', dir], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }).stdout).not.toContain('\x1b');
    expect(runCli(['scan', '--json', dir], { env: { FORCE_COLOR: '1', NO_COLOR: '' } }).stdout).toBe(JSON.stringify(json) + '\n');
  });
});

describe('scan inputs', () => {
  it('never follows symbolic links under an input, and counts them', () => {
    const dir = join(tmp, 'links');
    mkdirSync(join(dir, 'real'), { recursive: true });
    cpSync(join(missingDir, 'positive-interleaved.jsonl'), join(dir, 'real/a.jsonl'));
    symlinkSync(join(dir, 'real/a.jsonl'), join(dir, 'link.jsonl'));
    symlinkSync(join(dir, 'real'), join(dir, 'linked-dir'));
    symlinkSync(missingDir, join(dir, 'outside'));
    const report = runScan([dir]);
    expect(report.summary.symlinks_skipped).toBe(3);
    expect(report.summary.files_scanned).toBe(1);
    expect(report.findings.map((f) => f.file)).toEqual(['real/a.jsonl']);
  });

  it('refuses an input that is itself a symbolic link', () => {
    const link = join(tmp, 'input-link');
    symlinkSync(missingDir, link);
    expect(() => runScan([link])).toThrow('input 1 of 1 is a symbolic link');
  });

  it('walks only *.jsonl files, including those under dot-folders', () => {
    const dir = join(tmp, 'walk');
    mkdirSync(join(dir, '.hidden/deep'), { recursive: true });
    cpSync(join(missingDir, 'positive-interleaved.jsonl'), join(dir, '.hidden/deep/s.jsonl'));
    writeFileSync(join(dir, 'notes.txt'), 'not a transcript');
    writeFileSync(join(dir, 'agent.meta.json'), '{}');
    const report = runScan([dir]);
    expect(report.summary.files_scanned).toBe(1);
    expect(report.findings[0]?.file).toBe('.hidden/deep/s.jsonl');
  });

  it('names files relative to a single input, by base name for a file input, and prefixes several inputs', () => {
    expect(runScan([join(missingDir, 'positive-interleaved.jsonl')]).findings[0]?.file).toBe('positive-interleaved.jsonl');
    const a = join(tmp, 'one/projects');
    const b = join(tmp, 'two/projects');
    mkdirSync(a, { recursive: true });
    mkdirSync(b, { recursive: true });
    cpSync(join(missingDir, 'positive-interleaved.jsonl'), join(a, 's.jsonl'));
    cpSync(join(missingDir, 'positive-interleaved.jsonl'), join(b, 's.jsonl'));
    const files = runScan([a, b]).findings.map((f) => f.file);
    expect(files).toEqual(['projects-2/s.jsonl', 'projects/s.jsonl']);
  });

  it('gives identical bytes the same evidence digest and different bytes a different one', () => {
    const [session, copy] = ['session.jsonl', 'agent-copy.jsonl'].map((f) => runScan([join(missingDir, 'same-id-two-files', f)]).findings[0]!.evidence_sha256);
    expect(session).not.toBe(copy);
    const dir = join(tmp, 'twins');
    mkdirSync(dir);
    cpSync(join(missingDir, 'positive-interleaved.jsonl'), join(dir, 'a.jsonl'));
    cpSync(join(missingDir, 'positive-interleaved.jsonl'), join(dir, 'b.jsonl'));
    const [x, y] = runScan([dir]).findings.map((f) => f.evidence_sha256);
    expect(x).toBe(y);
  });
});
