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
  it('keeps len, the tool class and the error kind of the result paired by id', () => {
    expect(details('transcript-positive-with-result.jsonl').d).toEqual([{ len: 89, tool: 'Read', error_kind: 'other' }]);
    expect(details('transcript-positive-no-result.jsonl').d).toEqual([{ len: 1190, tool: 'AskUserQuestion', error_kind: 'no_result' }]);
    expect(details('transcript-positive-result-before-call.jsonl').d).toEqual([{ len: 40, tool: 'mcp', error_kind: 'other' }]);
  });
  it('bad shapes: one finding each, len only where it is a sane integer, the tool name never', () => {
    expect(details('transcript-positive-bad-shapes.jsonl').d).toEqual([
      { tool: 'Read', error_kind: 'other' },
      { tool: 'Read', error_kind: 'other' },
      { tool: 'Read', error_kind: 'other' },
      { tool: 'Read', error_kind: 'other' },
      { tool: 'Read', error_kind: 'other' },
      { len: 7, tool: 'Read', error_kind: 'other' },
      { len: 3, tool: 'other', error_kind: 'other' },
      { tool: 'Read', error_kind: 'none' },
    ]);
  });
  it('never carries raw (or anything else from the rows) out of the scanner', () => {
    for (const f of ['transcript-positive-with-result.jsonl', 'transcript-positive-no-result.jsonl', 'transcript-positive-bad-shapes.jsonl']) {
      expect(JSON.stringify(details(f).a, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('RAWCANARY7731');
    }
  });
});
