import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runScan } from '../../server/cli/scan-command';
import { analyseFile } from '../../server/detect/analyse-file';
import { isFindingCode } from '../../shared/finding-codes';
import { describeWithShared, sharedDir } from '../support/shared-material';

interface Expectation {
  findings: Array<{ code: string; line: number }>;
  errors: Array<{ code: string; line: number }>;
  diagnostics?: Partial<Record<'compaction_split' | 'call_open_at_end' | 'rejected_tool_input', number>>;
  exact?: boolean;
}

const corpus = join(sharedDir, 'corpus/real');

/**
 * Where an issue changes expect.json's answer on purpose ("where this file and an issue disagree, the
 * issue stands"). Issue 37: a file counts only when a reader recognised it; fasthooks' hook-event log
 * (no row has a `type`) was counted clean with nothing read, and is now refused with its hint.
 */
const CHANGED_ON_PURPOSE: Record<string, Array<{ code: string; line: number }>> = {
  'oneryalcin__fasthooks/specs/data/sample_hook_logs.jsonl': [{ code: 'unknown_format', line: 1 }],
};

// Real Claude Code transcripts nobody here wrote (../shared/corpus/real, SOURCES.md says where each comes from);
// expect.json says, per file, every finding (code and first line), every file error and every diagnostic.
describeWithShared('scan on real transcripts (../shared/corpus/real/expect.json)', () => {
  const expect_ = JSON.parse(readFileSync(join(corpus, 'expect.json'), 'utf8')) as {
    files: Record<string, Expectation>;
    pending?: Record<string, Array<{ file: string; line: number }>>;
  };
  const expected = expect_.files;
  // Findings expect.json lists as pending (a new finding an issue asks for) are expected once this build has the code.
  const pending = Object.entries(expect_.pending ?? {}).flatMap(([code, at]) => (isFindingCode(code) ? at.map((x) => ({ code, ...x })) : []));
  for (const [file, errors] of Object.entries(CHANGED_ON_PURPOSE)) if (expected[file]) expected[file] = { ...expected[file], errors };
  const report = runScan([corpus]);
  const files = Object.entries(expected);

  it('scans every file the expectations name, and no other', () => {
    const seen = new Set([...report.findings.map((f) => f.file), ...report.errors.map((e) => e.file), ...report.diagnostics.map((d) => d.file)]);
    for (const f of seen) expect(Object.keys(expected)).toContain(f);
    expect(report.summary.files_scanned).toBe(files.length);
  });

  it.each(files.filter(([, e]) => e.exact !== false))('%s: exactly the expected findings, errors and diagnostics', (file, e) => {
    const findings = report.findings.filter((f) => f.file === file).map((f) => `${f.code}@${Math.min(...f.source_lines)}`);
    const want = [...e.findings, ...pending.filter((p) => p.file === file)];
    expect(findings.sort()).toEqual(want.map((x) => `${x.code}@${x.line}`).sort());
    const errors = report.errors.filter((x) => x.file === file).map((x) => `${x.code}@${x.line}`);
    expect(errors.sort()).toEqual(e.errors.map((x) => `${x.code}@${x.line}`).sort());
    const d = report.diagnostics.find((x) => x.file === file);
    const got = Object.fromEntries(
      (['compaction_split', 'call_open_at_end', 'rejected_tool_input'] as const).filter((k) => (d?.[k] ?? 0) > 0).map((k) => [k, d![k]]),
    );
    expect(got).toEqual(e.diagnostics ?? {});
  });

  it.each(files.filter(([, e]) => e.exact === false))('%s (an excerpt): scans without an error', (file) => {
    expect(report.errors.filter((x) => x.file === file)).toEqual([]);
  });

  it('keeps the details the issues ask for: the unparseable call (len, tool, error kind) and the kind of each rejected input', () => {
    const salvage = runScan([corpus], { salvage: true });
    // Every damaged real file is two whole rows on one line: salvage reads them all and drops nothing.
    // (A file no reader recognises stays refused: salvage reads damaged lines, not other formats.)
    expect(salvage.errors.map((e) => e.file)).toEqual(Object.keys(CHANGED_ON_PURPOSE));
    expect(salvage.salvaged?.map((s) => `${s.file}@${s.line}:${s.code}:${s.torn_row_dropped}`).sort()).toEqual(
      files
        .filter(([file]) => !(file in CHANGED_ON_PURPOSE))
        .flatMap(([file, e]) => e.errors.map((x) => `${file}@${x.line}:${x.code}:false`))
        .sort(),
    );
    const byKind = Object.fromEntries(
      report.diagnostics.filter((d) => d.rejected_tool_input > 0).map((d) => [d.file.split('/')[0], d.rejected_tool_input_by_kind]),
    );
    expect(byKind['entireio__entire-graph']).toEqual({ schema_not_loaded: 1 });
    const a = analyseFile(join(corpus, 'JanDeDobbeleer__oh-my-posh/entire/checkpoints/v1/11/6e27a41b09/0/full.jsonl'));
    if (a.status !== 'ok') throw new Error('did not scan');
    expect(a.findings.map((f) => [f.code, f.sourceLines, f.details, f.model, f.version])).toEqual([
      [
        'unparseable_tool_input',
        [53, 54],
        // The redacted shape (issue 28): where the raw input stops parsing, never its bytes; the entrypoint as recorded.
        {
          len: 89,
          raw_chars: 89,
          stop_offset: 71,
          stop_expected: 'key',
          tool: 'Read',
          error_kind: 'other',
          stop_reason: 'tool_use',
          entrypoint: 'claude-desktop',
        },
        'claude-sonnet-5',
        '2.1.209',
      ],
    ]);
  });
});
