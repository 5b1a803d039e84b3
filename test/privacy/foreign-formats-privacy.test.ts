import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FORMAT_HINTS } from '../../shared/format-hints';
import { testApp } from '../support/api-app';
import { newCanary } from '../support/canary-transcripts';
import { expectAnswersFree, expectIndexFree } from '../support/privacy-checks';
import { runCli } from '../support/run-cli';

/**
 * Issue 37's new outputs (unknown_format's hint, Entire's compact code, unknown row types by
 * name, empty files, stream-json read as a transcript) never carry what a file said: every
 * value below, and every unknown key and type name, holds the canary.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-fmtpriv-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function writeForeignFiles(root: string, c: string): void {
  mkdirSync(root, { recursive: true });
  const put = (name: string, rows: unknown[]) => writeFileSync(join(root, name), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  put('codex.jsonl', [
    { timestamp: '2026-06-01T10:00:00.000Z', type: 'session_meta', payload: { id: c, cli_version: c, originator: c, cwd: `/home/${c}` } },
    { timestamp: '2026-06-01T10:00:01.000Z', type: 'response_item', payload: { type: 'function_call', name: c, arguments: c, call_id: c } },
  ]);
  put('droid.jsonl', [{ type: 'message', id: c, message: { role: 'assistant', content: [{ type: 'tool_use', id: c, name: c, input: { [c]: c } }] } }]);
  put('copilot.jsonl', [{ type: 'session.start', data: { sessionId: c, copilotVersion: c, context: { cwd: c } }, id: c, timestamp: c }]);
  put('otel.jsonl', [{ resourceSpans: [{ resource: { attributes: [{ key: c, value: { stringValue: c } }] } }] }]);
  put('chat.jsonl', [{ role: c, content: c }]);
  put('cursor.jsonl', [{ role: 'user', message: { content: [{ type: 'text', text: c }] } }]);
  put('hooks.jsonl', [{ event: c, session_id: c, cwd: c, ts: c }]);
  put('mystery.jsonl', [{ type: c, [c]: c }]);
  put('entire.jsonl', [{ v: 1, agent: c, cli_version: c, type: 'user', ts: c, content: [{ id: c, text: c }] }]);
  const env = { sessionId: c, cwd: `/home/${c}`, version: '2.1.200', uuid: c, parentUuid: c, gitBranch: c, timestamp: '2026-06-01T10:00:00.000Z' };
  put('typeless.jsonl', [
    { ...env, type: 'user', message: { role: 'user', content: c } },
    { ...env, requestId: c, message: { id: c, role: 'assistant', model: c, content: [{ type: 'text', text: c }] } },
  ]);
  put('unknown-rows.jsonl', [
    { ...env, type: 'user', message: { role: 'user', content: c } },
    { type: c, [c]: c },
    { type: `${c.toLowerCase()} with a space`, value: c },
    { [c]: c },
  ]);
  const init = { type: 'system', subtype: 'init', session_id: c, cwd: c, tools: [c], model: 'claude-opus-4-8', claude_code_version: '2.1.200', uuid: c };
  const assistant = (id: string, content: unknown[], stop: string | null) => ({
    type: 'assistant',
    message: { id, role: 'assistant', model: 'claude-opus-4-8', content, stop_reason: stop },
    session_id: c,
    uuid: c,
  });
  put('capture.jsonl', [
    init,
    assistant(`msg_${c}`, [{ type: 'thinking', thinking: c, signature: c }], null),
    assistant(`msg_${c}`, [{ type: 'tool_use', id: `toolu_${c}`, name: c, input: { [c]: c } }], 'tool_use'),
    { type: 'result', subtype: 'success', result: c, session_id: c, terminal_reason: c },
  ]);
  writeFileSync(join(root, 'empty.jsonl'), '');
}

describe('issue 37 outputs hold no payload', () => {
  it('scan (JSON and table), the index, /api/files, /api/summary and report: codes, fixed hints and pattern-checked names only', async () => {
    const canary = newCanary();
    const root = join(tmp, 'root');
    writeForeignFiles(root, canary);

    const json = runCli(['scan', '--json', root]);
    expect(json.status).toBe(2);
    const report = JSON.parse(json.stdout);
    const hints = report.errors.map((e: { hint?: string }) => e.hint).filter(Boolean);
    expect(hints.length).toBeGreaterThanOrEqual(5);
    for (const h of hints) expect(Object.keys(FORMAT_HINTS)).toContain(h);
    expect(report.errors.map((e: { code: string }) => e.code)).toContain('entire_compact_transcript');
    expect(report.summary.files_empty).toBe(1);
    // codex.jsonl and copilot.jsonl are read by their adapters since issue 34 (their own canary tests: agent-privacy.test.ts,
    // other-agents-privacy.test.ts); their canary versions are not versions, so nothing of them is kept.
    expect(report.summary.files_read_by_format).toEqual({ transcript: 3, 'stream-json': 1 });
    expect(report.diagnostics.find((d: { file: string }) => d.file === 'unknown-rows.jsonl').unknown_row_types).toEqual({ other: 3 });
    const table = runCli(['scan', root], { env: { COLUMNS: '300' } });
    expect(table.stdout).toContain('Cursor agent transcript');
    for (const out of [json.stdout + json.stderr, table.stdout + table.stderr]) expect(out).not.toContain(canary);

    const t = await testApp([root]);
    try {
      await expectAnswersFree(t, ['/api/files', '/api/summary', '/api/diagnostics'], canary);
      const files = (await t.get('/api/files')).json;
      expect(files.rows.filter((r: { format_hint: string | null }) => r.format_hint !== null).length).toBeGreaterThanOrEqual(5);
      expect(files.unknown_rows.map((r: { unknown_row_types: unknown }) => r.unknown_row_types)).toEqual([[{ type: 'other', count: 3 }]]);
      const { dbPath, bytes } = expectIndexFree(t, canary);
      expect(bytes.includes(Buffer.from('cursor_transcript'))).toBe(true);
      const reportRun = runCli(['report', '--db', dbPath]);
      expect(reportRun.stdout).toContain('Files refused by code:');
      expect(reportRun.stdout + reportRun.stderr).not.toContain(canary);
    } finally {
      await t.close();
    }
  });
});
