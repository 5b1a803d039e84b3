import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import { detectorFixtureTests, fixturesRoot } from '../support/detector-fixtures';

describe('unparseable_tool_input fixtures (transcripts and stream captures)', () => detectorFixtureTests('unparseable_tool_input'));

describe('unparseable_tool_input in transcripts: what is kept', () => {
  const dir = join(fixturesRoot, 'detectors/unparseable_tool_input');
  const details = (file: string) => {
    const a = analyseFile(join(dir, file), { forIndex: true });
    if (a.status !== 'ok') throw new Error('did not scan');
    return { a, d: a.findings.filter((f) => f.code === 'unparseable_tool_input').map((f) => f.details) };
  };
  it('keeps len, the tool class, the error kind of the result paired by id, and where raw stops parsing (never raw)', () => {
    expect(details('transcript-positive-with-result.jsonl').d).toEqual([
      { stop_reason: 'tool_use', len: 89, tool: 'Read', error_kind: 'other', raw_chars: 47, stop_offset: 47, stop_expected: 'string_end' },
    ]);
    expect(details('transcript-positive-no-result.jsonl').d).toEqual([
      { stop_reason: 'tool_use', len: 1190, tool: 'AskUserQuestion', error_kind: 'no_result', raw_chars: 42, stop_offset: 42, stop_expected: 'string_end' },
    ]);
    expect(details('transcript-positive-result-before-call.jsonl').d).toEqual([
      { stop_reason: 'tool_use', len: 40, tool: 'mcp', error_kind: 'other', raw_chars: 24, stop_offset: 24, stop_expected: 'string_end' },
    ]);
  });
  it('bad shapes: one finding each, len only where it is a sane integer, the tool name never', () => {
    expect(details('transcript-positive-bad-shapes.jsonl').d).toEqual([
      { stop_reason: 'tool_use', tool: 'Read', error_kind: 'other' },
      { stop_reason: 'tool_use', tool: 'Read', error_kind: 'other', raw_chars: 13, stop_offset: 0, stop_expected: 'value' },
      { stop_reason: 'tool_use', tool: 'Read', error_kind: 'other', raw_chars: 13, stop_offset: 0, stop_expected: 'value' },
      { stop_reason: 'tool_use', tool: 'Read', error_kind: 'other', raw_chars: 13, stop_offset: 0, stop_expected: 'value' },
      { stop_reason: 'tool_use', tool: 'Read', error_kind: 'other', raw_chars: 13, stop_offset: 0, stop_expected: 'value' },
      { stop_reason: 'tool_use', len: 7, tool: 'Read', error_kind: 'other' },
      { stop_reason: 'tool_use', len: 3, tool: 'other', error_kind: 'other', raw_chars: 13, stop_offset: 0, stop_expected: 'value' },
      { stop_reason: 'tool_use', tool: 'Read', error_kind: 'none' },
    ]);
  });
  it('never carries raw (or anything else from the rows) out of the scanner', () => {
    for (const f of ['transcript-positive-with-result.jsonl', 'transcript-positive-no-result.jsonl', 'transcript-positive-bad-shapes.jsonl']) {
      expect(JSON.stringify(details(f).a, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('RAWCANARY7731');
    }
  });
});
