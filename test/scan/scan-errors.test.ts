import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import { SCAN_ERROR_CODES } from '../../shared/scan-errors';
import { fixturesRoot } from '../support/detector-fixtures';

const errors = join(fixturesRoot, 'errors');

describe('fail closed: every error code has a fixture with a located failure', () => {
  it.each([
    ['malformed_json.jsonl', 'malformed_json', 2],
    ['malformed_json-two-values.jsonl', 'malformed_json', 2],
    ['duplicate_key.jsonl', 'duplicate_key', 2],
    ['invalid_utf8.jsonl', 'invalid_utf8', 2],
    ['invalid_structure.jsonl', 'invalid_structure', 2],
    ['invalid_structure-block-without-type.jsonl', 'invalid_structure', 2],
    ['invalid_structure-not-an-object.jsonl', 'invalid_structure', 2],
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
    const covered = ['malformed_json', 'duplicate_key', 'invalid_utf8', 'invalid_structure', 'unreadable', 'not_regular_file'];
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
