import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runScan } from '../../server/cli/scan-command';
import { generateCorpus } from '../support/generated-corpus';
import { requireSharedOrSkip } from '../support/shared-material';

const CORE = ['missing_tool_use_block', 'empty_tool_input_with_error_result'];

describe.runIf(requireSharedOrSkip('scan on a generated corpus'))('scan on a generated corpus (../shared/bench/gen-corpus.mjs)', () => {
  const corpus = generateCorpus(['--size-mb', '25', '--seed', '7', '--canary', 'SCANCANARYX']);
  afterAll(() => rmSync(corpus.dir, { recursive: true, force: true }));
  const report = runScan([corpus.projects]);

  it('scans every file cleanly and checks every assistant message', () => {
    expect(report.errors).toEqual([]);
    expect(report.summary.assistant_messages_checked).toBe(corpus.truth.totals.assistant_messages);
  });

  it.each(CORE)('finds exactly the injected %s failures, at their lines', (code) => {
    const want = corpus.truth.findings.filter((f) => f.code === code).map((f) => `${f.file}:${f.lines.join(',')}`).sort();
    const got = report.findings.filter((f) => f.code === code).map((f) => `${f.file}:${f.source_lines.join(',')}`).sort();
    expect(want.length).toBeGreaterThan(0);
    expect(got).toEqual(want);
  });

  it('prints no payload', () => {
    expect(JSON.stringify(report)).not.toContain('SCANCANARYX');
  });
});
