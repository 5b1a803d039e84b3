import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { runScan } from '../../server/cli/scan-command';
import { FINDING_CODES } from '../../shared/finding-codes';
import { generateCorpus } from '../support/generated-corpus';
import { describeWithShared } from '../support/shared-material';

const CORE: readonly string[] = ['missing_tool_use_block', 'empty_tool_input_with_error_result'];

describeWithShared('scan on a generated corpus (../shared/bench/gen-corpus.mjs)', () => {
  const corpus = generateCorpus(['--size-mb', '25', '--seed', '7', '--canary', 'SCANCANARYX']);
  afterAll(() => rmSync(corpus.dir, { recursive: true, force: true }));
  const report = runScan([corpus.projects]);

  it('scans every file cleanly and checks every assistant message', () => {
    expect(report.errors).toEqual([]);
    expect(report.summary.assistant_messages_checked).toBe(corpus.truth.totals.assistant_messages);
  });

  it.each(CORE)('finds exactly the injected %s failures, at their lines', (code) => {
    const want = corpus.truth.findings
      .filter((f) => f.code === code)
      .map((f) => `${f.file}:${f.lines.join(',')}`)
      .sort();
    const got = report.findings
      .filter((f) => f.code === code)
      .map((f) => `${f.file}:${f.source_lines.join(',')}`)
      .sort();
    expect(want.length).toBeGreaterThan(0);
    expect(got).toEqual(want);
  });

  it.each(FINDING_CODES.filter((c) => !CORE.includes(c)))('%s: the count (and, where truth.json gives them, the lines) of the injected failures', (code) => {
    const truth = corpus.truth.findings.filter((f) => f.code === code);
    const got = report.findings.filter((f) => f.code === code);
    expect(got.length).toBe(truth.length);
    if (truth.every((f) => f.lines.length > 0)) {
      expect(got.map((f) => `${f.file}:${f.source_lines.join(',')}`).sort()).toEqual(truth.map((f) => `${f.file}:${f.lines.join(',')}`).sort());
    }
  });

  it('prints no payload', () => {
    expect(JSON.stringify(report)).not.toContain('SCANCANARYX');
  });
});
