import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScan, scanExitCode } from '../../server/cli/scan-command';
import { sniffFirstRow } from '../../server/scan/format-sniff';
import type { FORMAT_HINTS } from '../../shared/format-hints';
import { type TestApp, testApp } from '../support/api-app';
import { runCli } from '../support/run-cli';

/**
 * Issue 37: a file counts only when a reader recognised it. One fixture per class
 * (fixtures/formats/, no ../shared), each with its outcome in scan --json, the exit status,
 * the index and /api/files.
 */
const folder = join(import.meta.dirname, '../../fixtures/formats');

type Outcome =
  | { refused: string; line: number | null; hint?: keyof typeof FORMAT_HINTS }
  | { read: 'transcript' | 'stream-json'; messages: number; unknownRows?: Record<string, number> }
  | { empty: true };

const EXPECTED: Record<string, Outcome> = {
  // Issue 34: read by the Codex CLI adapter.
  'codex-rollout.jsonl': { read: 'transcript', messages: 2 },
  'droid-message-rows.jsonl': { refused: 'unknown_format', line: 1, hint: 'message_rows' },
  // Issue 34: read by the Copilot CLI adapter (a session start and hooks, no model message).
  'copilot-events.jsonl': { read: 'transcript', messages: 0 },
  'otel-export.jsonl': { refused: 'unknown_format', line: 1, hint: 'opentelemetry_export' },
  'lone-object.jsonl': { refused: 'unknown_format', line: 1, hint: 'empty_object' },
  'role-content-rows.jsonl': { refused: 'unknown_format', line: 1, hint: 'chat_messages' },
  'chat.ndjson': { refused: 'unknown_format', line: 1, hint: 'chat_messages' },
  'unknown-no-hint.jsonl': { refused: 'unknown_format', line: 1 },
  'entire-compact.jsonl': { refused: 'entire_compact_transcript', line: 1 },
  'typeless-assistant-row.jsonl': { refused: 'invalid_structure', line: 2 },
  'zero-bytes.jsonl': { empty: true },
  'blank-lines.jsonl': { empty: true },
  'summary-only.jsonl': { read: 'transcript', messages: 0 },
  'user-attachment-only.jsonl': { read: 'transcript', messages: 0 },
  'unknown-row-types.jsonl': { read: 'transcript', messages: 1, unknownRows: { 'brand-new-row': 1, other: 2 } },
  'stream-json-whole.jsonl': { read: 'stream-json', messages: 2 },
  'stream-json-partial.jsonl': { read: 'stream-json', messages: 1 },
};

describe('scan --json: every class has its outcome', () => {
  const report = runScan([folder]);

  it('covers every fixture, and no non-empty file counts as clean with nothing read', () => {
    expect(report.summary.files_scanned).toBe(Object.keys(EXPECTED).length);
    expect(report.findings).toEqual([]);
  });

  it.each(Object.entries(EXPECTED))('%s', (file, want) => {
    const error = report.errors.find((e) => e.file === file);
    const diagnostics = report.diagnostics.find((d) => d.file === file);
    if ('refused' in want) {
      expect(error).toEqual({ file, code: want.refused, line: want.line, ...(want.hint ? { hint: want.hint } : {}) });
    } else {
      expect(error).toBeUndefined();
      expect(diagnostics?.unknown_row_types ?? {}).toEqual('read' in want ? (want.unknownRows ?? {}) : {});
    }
  });

  it('sums them: files read per format, empty files, files refused per code, messages checked', () => {
    const values = Object.values(EXPECTED);
    const count = (f: (o: Outcome) => boolean) => values.filter(f).length;
    expect(report.summary.files_empty).toBe(count((o) => 'empty' in o));
    expect(report.summary.files_failed).toBe(count((o) => 'refused' in o));
    expect(report.summary.files_read_by_format).toEqual({
      transcript: count((o) => 'read' in o && o.read === 'transcript'),
      'stream-json': count((o) => 'read' in o && o.read === 'stream-json'),
    });
    expect(report.summary.files_refused_by_code).toEqual({ unknown_format: 6, entire_compact_transcript: 1, invalid_structure: 1 });
    expect(report.summary.assistant_messages_checked).toBe(values.reduce((n, o) => n + ('read' in o ? o.messages : 0), 0));
  });

  it('exit status: refusals make it 2; empty files alone leave it 0', () => {
    expect(scanExitCode(report)).toBe(2);
    const clean = ['zero-bytes.jsonl', 'blank-lines.jsonl', 'summary-only.jsonl', 'user-attachment-only.jsonl', 'stream-json-whole.jsonl'];
    const run = runScan(clean.map((f) => join(folder, f)));
    expect(run.errors).toEqual([]);
    expect(run.summary.files_empty).toBe(2);
    expect(scanExitCode(run)).toBe(0);
    const cli = runCli(['scan', join(folder, 'droid-message-rows.jsonl')], { env: { COLUMNS: '300' } });
    expect(cli.status).toBe(2);
    expect(cli.stdout).toContain('message rows');
  });

  it('stream-json without partial messages is checked as a transcript: a call left without result is a finding', () => {
    // The same capture's rows with the tool result removed: its call is lost.
    const tmp = mkdtempSync(join(tmpdir(), 'tcf-sj-'));
    try {
      const rows = readFileSync(join(folder, 'stream-json-whole.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => !l.includes('"tool_result"'));
      writeFileSync(join(tmp, 'lost.jsonl'), rows.join('\n'));
      const run = runScan([tmp]);
      expect(run.summary.files_read_by_format).toEqual({ 'stream-json': 1 });
      expect(run.findings.map((f) => [f.code, f.lines[0]])).toEqual([['orphan_tool_use', 3]]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('the first row decides from key names only', () => {
  it('never from values: the same shapes with other strings give the same hint', () => {
    expect(sniffFirstRow({ type: 'session_meta', payload: { anything: 'x' } })).toEqual({ kind: 'foreign', hint: 'codex_rollout' });
    expect(sniffFirstRow({ role: 'whatever', content: 1 })).toEqual({ kind: 'foreign', hint: 'chat_messages' });
    expect(sniffFirstRow({ role: 'user', message: {} })).toEqual({ kind: 'foreign', hint: 'cursor_transcript' });
    expect(sniffFirstRow({ event: 'PreToolUse', session_id: 's' })).toEqual({ kind: 'foreign', hint: 'hook_event_log' });
    expect(sniffFirstRow({ sessionId: 's', projectHash: 'h', startTime: 't' })).toEqual({ kind: 'foreign', hint: 'gemini_cli_chat' });
    expect(sniffFirstRow({ type: 'session', version: 3, id: 'x' })).toEqual({ kind: 'foreign', hint: 'pi_session' });
    expect(sniffFirstRow({ display: 'x', pastedContents: {}, timestamp: 1, project: 'p' })).toEqual({ kind: 'foreign', hint: 'claude_prompt_history' });
    expect(sniffFirstRow([1, 2])).toEqual({ kind: 'foreign', hint: 'not_an_object' });
  });
  it('a Claude Code row, or a row of an unknown type, is left to the reader', () => {
    expect(sniffFirstRow({ type: 'summary', summary: 's', leafUuid: 'x' })).toEqual({ kind: 'read' });
    expect(sniffFirstRow({ type: 'brand-new-row' })).toEqual({ kind: 'read' });
    expect(sniffFirstRow({ type: 'user', message: { role: 'user', content: 'x' }, v: 1, agent: 'a', cli_version: '1' })).toEqual({ kind: 'read' });
  });
});

describe('the index and /api/files', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcf-formats-'));
    cpSync(folder, join(dir, 'formats'), { recursive: true });
    t = await testApp([join(dir, 'formats')]);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores each class: status, code, line, hint, empty, and unknown row types by name', () => {
    const rows = t.db
      .prepare('SELECT rel_path, status, error_code, error_line, format_hint, empty, assistant_messages, format FROM files ORDER BY rel_path')
      .all() as Array<{
      rel_path: string;
      status: string;
      error_code: string | null;
      error_line: number | null;
      format_hint: string | null;
      empty: number;
      assistant_messages: number;
      format: string | null;
    }>;
    expect(rows.map((r) => r.rel_path).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const r of rows) {
      const want = EXPECTED[r.rel_path]!;
      if ('refused' in want) {
        expect([r.status, r.error_code, r.error_line, r.format_hint], r.rel_path).toEqual(['failed', want.refused, want.line, want.hint ?? null]);
      } else if ('empty' in want) {
        expect([r.status, r.empty, r.assistant_messages], r.rel_path).toEqual(['ok', 1, 0]);
      } else {
        expect([r.status, r.empty, r.assistant_messages, r.format ?? 'transcript'], r.rel_path).toEqual(['ok', 0, want.messages, want.read]);
      }
    }
    const diag = t.db
      .prepare(
        "SELECT d.unknown_row_types AS u FROM file_diagnostics d JOIN files f ON f.id = d.file_id WHERE f.rel_path = 'unknown-row-types.jsonl' AND d.unknown_row_types IS NOT NULL",
      )
      .all() as Array<{ u: string | null }>;
    expect(diag.map((d) => JSON.parse(d.u ?? '{}'))).toEqual([{ 'brand-new-row': 1, other: 2 }]);
  });

  it('/api/files: refusals with their hint, files read with unknown row types, the empty count', async () => {
    const r = await t.get('/api/files');
    expect(r.status).toBe(200);
    const refused = Object.entries(EXPECTED).filter(([, o]) => 'refused' in o);
    expect(r.json.rows.map((f: { file: string }) => f.file).sort()).toEqual(refused.map(([f]) => f).sort());
    for (const [file, o] of refused) {
      const row = r.json.rows.find((f: { file: string }) => f.file === file);
      expect(row.format_hint, file).toBe('hint' in o ? (o.hint ?? null) : null);
    }
    expect(r.json.unknown_rows).toEqual([
      expect.objectContaining({
        file: 'unknown-row-types.jsonl',
        unknown_row_types: [
          { type: 'other', count: 2 },
          { type: 'brand-new-row', count: 1 },
        ],
      }),
    ]);
    expect(r.json.files_empty).toBe(2);
  });

  it('/api/summary: files read per format, empty, refused per code', async () => {
    const r = await t.get('/api/summary');
    expect(r.json.files_by_format).toEqual({ transcript: 5, 'stream-json': 2 });
    expect(r.json.files_empty).toBe(2);
    expect(r.json.files_refused_by_code).toEqual({ unknown_format: 6, entire_compact_transcript: 1, invalid_structure: 1 });
  });
});
