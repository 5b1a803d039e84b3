import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import { analyseForIndex } from '../../server/index/analyse-for-index';
import { SCAN_ERROR_CODES } from '../../shared/scan-errors';
import { fixturesRoot } from '../support/detector-fixtures';

const errors = join(fixturesRoot, 'errors');

describe('fail closed: every error code has a fixture with a located failure', () => {
  it.each([
    ['malformed_json.jsonl', 'malformed_json', 2],
    ['malformed_json-two-values.jsonl', 'malformed_json', 2],
    ['malformed_json-torn-row.jsonl', 'malformed_json', 2],
    ['concatenated_rows.jsonl', 'concatenated_rows', 2],
    ['duplicate_key.jsonl', 'duplicate_key', 2],
    ['invalid_utf8.jsonl', 'invalid_utf8', 2],
    ['invalid_structure.jsonl', 'invalid_structure', 2],
    ['invalid_structure-block-without-type.jsonl', 'invalid_structure', 2],
    ['invalid_structure-not-an-object.jsonl', 'invalid_structure', 2],
    ['unknown_format.jsonl', 'unknown_format', 2],
    ['entire_compact_transcript.jsonl', 'entire_compact_transcript', 1],
  ])('%s fails with %s at line %i and yields nothing', (file, code, line) => {
    const analysis = analyseFile(join(errors, file));
    expect(analysis).toMatchObject({ status: 'failed', failure: { code, line } });
    expect('findings' in analysis).toBe(false);
  });

  const tmp = mkdtempSync(join(tmpdir(), 'tcf-unreadable-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('reports unreadable when the file vanished, not_regular_file when it is not a regular file', () => {
    expect(analyseFile(join(tmp, 'gone.jsonl'))).toMatchObject({ status: 'failed', failure: { code: 'unreadable', line: null } });
    expect(analyseFile(tmp)).toMatchObject({ status: 'failed', failure: { code: 'not_regular_file', line: null } });
  });

  it('covers every declared error code', () => {
    const covered = ['malformed_json', 'concatenated_rows', 'duplicate_key', 'invalid_utf8', 'invalid_structure', 'unreadable', 'not_regular_file'];
    // fixtures/formats/ holds one file of each class issue 37 names (test/scan/foreign-formats.test.ts).
    covered.push('unknown_format', 'entire_compact_transcript');
    // Gemini CLI's text-only files: test/scan/agents/other-agents.test.ts.
    covered.push('gemini_text_only');
    // OpenCode's database (built at run time): test/scan/opencode-db.test.ts.
    covered.push('database_schema_unknown', 'database_busy', 'database_too_large');
    // Covered by test/reliability/hostile-files.test.ts (each needs a file built at run time).
    covered.push('path_changed', 'nesting_too_deep', 'line_too_long', 'unfinished_last_line', 'unsupported_file_name');
    expect([...SCAN_ERROR_CODES].sort()).toEqual(covered.sort());
  });

  it('accepts unknown row types, blank lines, CRLF endings and a last line without newline', () => {
    const analysis = analyseFile(join(errors, 'ok-unknown-types-crlf-no-final-newline.jsonl'));
    expect(analysis).toMatchObject({ status: 'ok', assistantMessages: 1, endsWithNewline: false, lineCount: 6 });
  });

  it('fails a file whose user row carries a non-boolean is_error', () => {
    const path = join(tmp, 'bad-is-error.jsonl');
    writeFileSync(path, '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","is_error":"yes"}]}}\n');
    expect(analyseFile(path)).toMatchObject({ status: 'failed', failure: { code: 'invalid_structure', line: 1 } });
  });
});

describe('damaged lines: told apart, and read only when the user asks (salvage)', () => {
  it('two complete rows on one line: every row read, the file labelled, nothing excluded', () => {
    const a = analyseForIndex(join(errors, 'concatenated_rows.jsonl'), { salvage: true });
    expect(a).toMatchObject({ status: 'ok', assistantMessages: 2, salvaged: [{ code: 'concatenated_rows', line: 2, rowsKept: 2, stubDropped: false }] });
    if (a.status === 'ok') expect(a.messages.hash.length).toBe(2);
  });
  it('a torn row: dropped, and the messages it could belong to count nowhere', () => {
    const a = analyseForIndex(join(errors, 'malformed_json-torn-row.jsonl'), { salvage: true });
    expect(a).toMatchObject({
      status: 'ok',
      assistantMessages: 0,
      findings: [],
      salvaged: [{ code: 'malformed_json', line: 2, rowsKept: 1, stubDropped: true }],
    });
    if (a.status === 'ok') expect(a.messages.hash.length).toBe(0);
  });
  it('a line with nothing complete on it still fails, salvage or not', () => {
    expect(analyseFile(join(errors, 'malformed_json.jsonl'), { salvage: true })).toMatchObject({
      status: 'failed',
      failure: { code: 'malformed_json', line: 2 },
    });
  });
  it('splits only at complete objects, never guessing', async () => {
    const { splitDamagedLine } = await import('../../server/scan/split-damaged-line');
    expect(splitDamagedLine('{"a":1}{"b":"}{"}')).toMatchObject({ kind: 'concatenated', rows: [{ value: { a: 1 } }, { value: { b: '}{' } }] });
    expect(splitDamagedLine('{"a":"cut here{"type":"user","uuid":"u2"}')).toMatchObject({ kind: 'torn', rows: [{ value: { type: 'user', uuid: 'u2' } }] });
    // an object nested in the torn row is not a row
    expect(splitDamagedLine('{"type":"assistant","uuid":"u1","usage":{"input_tokens":1}')).toEqual({ kind: 'unreadable' });
    expect(splitDamagedLine('{"a":1}[1,2]')).toEqual({ kind: 'unreadable' });
    expect(splitDamagedLine('{"a":1} 42')).toEqual({ kind: 'unreadable' });
    expect(splitDamagedLine('{"a":{"b":1}')).toEqual({ kind: 'unreadable' });
    expect(splitDamagedLine('')).toEqual({ kind: 'unreadable' });
  });
});

describe('format detection', () => {
  it('tells stream-json captures from transcripts by their first row, and raw SSE by name', async () => {
    const { detectFormat } = await import('../../server/scan/scan-capture');
    const dir = mkdtempSync(join(tmpdir(), 'tcf-format-'));
    try {
      const write = (name: string, body: string) => {
        writeFileSync(join(dir, name), body);
        return join(dir, name);
      };
      expect(detectFormat(write('a.jsonl', '{"type":"system","subtype":"init","session_id":"s"}\n'))).toBe('stream-json');
      expect(detectFormat(write('b.jsonl', `{"type":"stream_event","event":{"type":"ping","pad":"${'x'.repeat(9000)}"}}\n`))).toBe('stream-json');
      expect(detectFormat(write('c.jsonl', '\n{"parentUuid":null,"type":"user","message":{"role":"user","content":"hi"}}\n'))).toBe('transcript');
      expect(detectFormat(write('d.jsonl', ''))).toBe('transcript');
      expect(detectFormat(write('e.sse', 'event: ping\ndata: {"type":"ping"}\n'))).toBe('sse');
      expect(detectFormat(write('f.ndjson', 'not json\n'))).toBe('stream-json');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
