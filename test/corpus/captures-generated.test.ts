import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { runScan } from '../../server/cli/scan-command';
import { countOf, getRates } from '../../server/query/get-rates';
import { getSummary } from '../../server/query/get-summary';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { describeWithShared, sharedDir } from '../support/shared-material';

const CODES = ['zero_delta_tool_use', 'tool_use_stop_without_block', 'unparseable_tool_input', 'input_mismatch'];

describeWithShared('stream captures (../shared/bench/gen-captures.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tcf-captures-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const r = spawnSync(process.execPath, [
    join(sharedDir, 'bench/gen-captures.mjs'),
    '--out',
    dir,
    '--runs',
    '300',
    '--seed',
    '9',
    '--canary',
    'CAPTURECANARY',
    '--quiet',
  ]);
  if (r.status !== 0) throw new Error('gen-captures failed');
  const truth = JSON.parse(readFileSync(join(dir, 'captures-truth.json'), 'utf8')) as {
    findings: Array<{ file: string; code: string; lines: number[] }>;
    totals: { messages: number };
    terminal_reasons: Record<string, number>;
  };
  const report = runScan([join(dir, 'captures')]);

  it.each(CODES)('%s: exactly the injected findings, at their lines', (code) => {
    const want = truth.findings
      .filter((f) => f.code === code)
      .map((f) => `${f.file}:${f.lines.join(',')}`)
      .sort();
    expect(want.length).toBeGreaterThan(0);
    expect(
      report.findings
        .filter((f) => f.code === code)
        .map((f) => `${f.file}:${f.source_lines.join(',')}`)
        .sort(),
    ).toEqual(want);
  });

  it('replays every message, finds nothing else, and prints no payload', () => {
    expect(report.errors).toEqual([]);
    expect(report.summary.assistant_messages_checked).toBe(truth.totals.messages);
    expect(report.findings.every((f) => CODES.includes(f.code) || f.code === 'malformed_tool_use_exhausted')).toBe(true);
    expect(JSON.stringify(report)).not.toContain('CAPTURECANARY');
  });

  it('malformed_tool_use_exhausted: one finding per run whose result row says so', () => {
    expect(truth.terminal_reasons.malformed_tool_use_exhausted).toBeGreaterThan(0);
    expect(report.findings.filter((f) => f.code === 'malformed_tool_use_exhausted').length).toBe(truth.terminal_reasons.malformed_tool_use_exhausted);
  });

  it('indexes captures by format, with the same counts', async () => {
    const db = openDatabase(join(dir, 'i.db'));
    addRoot(db, join(dir, 'captures'));
    const s = await indexDatabase(db, { analyser: 'inline' });
    expect(s.formats).toEqual({ 'stream-json': 240, sse: 60 });
    expect(s.terminalReasons).toEqual(truth.terminal_reasons);
    expect(getSummary(db).files_by_format).toEqual({ 'stream-json': 240, sse: 60 });
    const rows = getRates(db, 'version');
    for (const code of CODES) expect(countOf(rows, code)).toBe(truth.findings.filter((f) => f.code === code).length);
    expect(countOf(rows, 'malformed_tool_use_exhausted')).toBe(truth.terminal_reasons.malformed_tool_use_exhausted);
    // Every stream-json capture's terminal_reason, recorded per file.
    const reasons = db
      .prepare<[], { r: string; n: number }>("SELECT terminal_reason AS r, count(*) AS n FROM files WHERE format = 'stream-json' GROUP BY 1")
      .all();
    expect(Object.fromEntries(reasons.map((x) => [x.r, x.n]))).toEqual(truth.terminal_reasons);
    db.close();
  });
});
