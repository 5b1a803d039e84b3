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
