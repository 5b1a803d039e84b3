import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { runScan } from '../../server/cli/scan-command';
import { FINDING_CODES } from '../../shared/finding-codes';
import { generateCorpus } from '../support/generated-corpus';
import { describeWithShared } from '../support/shared-material';

const CORE: readonly string[] = ['missing_tool_use_block', 'empty_tool_input_with_error_result', 'unparseable_tool_input'];
const key = (file: string, lines: number[]) => `${file}:${lines.join(',')}`;

describeWithShared('scan on a generated corpus (../shared/bench/gen-corpus.mjs)', () => {
  // 40 MB, seed 9: enough that every rare shape is there (an unparseable call, each refusal, a torn line and two
  // concatenated ones, calls open at the end); the first tests check that they are, so a change of generator that
  // leaves one out fails here instead of passing vacuously.
  const corpus = generateCorpus(['--size-mb', '40', '--seed', '9', '--canary', 'SCANCANARYX']);
  afterAll(() => rmSync(corpus.dir, { recursive: true, force: true }));
  const report = runScan([corpus.projects]);
  const { truth } = corpus;

  it('fails exactly the damaged files, each with its code at its line, and reads every other file', () => {
    expect(truth.damaged_files.length).toBeGreaterThan(0);
    expect(new Set(truth.damaged_files.map((d) => d.code))).toEqual(new Set(['concatenated_rows', 'malformed_json']));
    expect(report.errors.map((e) => `${e.file}:${e.line}:${e.code}`).sort()).toEqual(truth.damaged_files.map((d) => `${d.file}:${d.line}:${d.code}`).sort());
    // The seed's summary counts every message it groups (harness-written ones too); truth counts model messages only.
    expect(report.summary.assistant_messages_checked).toBeGreaterThanOrEqual(truth.totals.assistant_messages);
  });

  it.each(CORE)('finds exactly the injected %s failures, at their lines', (code) => {
    const want = truth.findings
      .filter((f) => f.code === code)
      .map((f) => key(f.file, f.lines))
      .sort();
    const got = report.findings
      .filter((f) => f.code === code)
      .map((f) => key(f.file, f.source_lines))
      .sort();
    expect(want.length).toBeGreaterThan(0);
    expect(got).toEqual(want);
  });

  it.each(FINDING_CODES.filter((c) => !CORE.includes(c)))('%s: the count (and, where truth.json gives them, the lines) of the injected failures', (code) => {
    const want = truth.findings.filter((f) => f.code === code);
    const got = report.findings.filter((f) => f.code === code);
    expect(got.length).toBe(want.length);
    if (want.every((f) => f.lines.length > 0)) {
      expect(got.map((f) => key(f.file, f.source_lines)).sort()).toEqual(want.map((f) => key(f.file, f.lines)).sort());
    }
  });

  it('look-alikes are there and make no finding: refusals, calls open at the end, results before their calls, compaction splits', () => {
    const l = truth.totals.lookalikes;
    expect(Math.min(l.noSuchTool, l.schemaLate, l.sibling)).toBeGreaterThan(0);
    expect(l.resultFirst).toBeGreaterThan(0);
    expect(l.openAtEnd).toBeGreaterThan(0);
    expect(report.findings.length).toBe(truth.findings.length);
    const sum = (k: 'compaction_split' | 'call_open_at_end' | 'rejected_tool_input') => report.diagnostics.reduce((n, d) => n + d[k], 0);
    // Counted as diagnostics instead (damaged files count nowhere, so at most what was written).
    expect(sum('call_open_at_end')).toBeGreaterThan(0);
    expect(sum('call_open_at_end')).toBeLessThanOrEqual(l.openAtEnd);
    expect(sum('compaction_split')).toBeGreaterThan(0);
    expect(sum('rejected_tool_input')).toBeGreaterThan(0);
    expect(sum('rejected_tool_input')).toBeLessThanOrEqual(l.schemaLate + l.sibling);
  });

  it('prints no payload', () => {
    expect(JSON.stringify(report)).not.toContain('SCANCANARYX');
  });

  it('with --salvage: reads the damaged files, labels each at its line, and still finds every injected failure', () => {
    const salvaged = runScan([corpus.projects], { salvage: true });
    expect(salvaged.errors).toEqual([]);
    expect(salvaged.summary.files_salvaged).toBe(truth.damaged_files.length);
    expect(salvaged.salvaged?.map((s) => `${s.file}:${s.line}:${s.code}:${s.torn_row_dropped}`).sort()).toEqual(
      truth.damaged_files.map((d) => `${d.file}:${d.line}:${d.code}:${d.code === 'malformed_json'}`).sort(),
    );
    const got = new Set(salvaged.findings.map((f) => `${f.code}@${key(f.file, f.source_lines)}`));
    for (const f of truth.findings) if (f.lines.length > 0) expect(got.has(`${f.code}@${key(f.file, f.lines)}`)).toBe(true);
    expect(JSON.stringify(salvaged)).not.toContain('SCANCANARYX');
  });
});
