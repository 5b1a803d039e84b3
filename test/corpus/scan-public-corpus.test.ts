import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runScan } from '../../server/cli/scan-command';
import { describeWithShared, sharedDir } from '../support/shared-material';

describeWithShared('scan on real public transcripts (Claude Code 1.0.17 to 2.1.280)', () => {
  const report = runScan([join(sharedDir, 'corpus/public')]);

  it('finds no core failure in real sessions', () => {
    expect(report.findings.filter((f) => ['missing_tool_use_block', 'empty_tool_input_with_error_result'].includes(f.code))).toEqual([]);
  });

  it('finds nothing with the other detectors either (a wrapped <function_calls> imitation in a 2.0.37 subagent is not a bare leak)', () => {
    expect(report.findings).toEqual([]);
  });

  it('fails only the hand-written file with non-object lines, at a located line', () => {
    expect(report.errors).toEqual([{ file: 'daaain__claude-code-log/test/test_data/edge_cases.jsonl', line: 10, code: 'invalid_structure' }]);
    expect(report.summary.files_failed).toBe(1);
    expect(report.summary.files_scanned).toBeGreaterThan(100);
    expect(report.summary.assistant_messages_checked).toBeGreaterThan(1000);
  });
});
