import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import { newCanary } from '../support/canary-transcripts';
import { runCli } from '../support/run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-collected-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * The detectors that keep facts of their own read payload through observers (the harness's 400
 * wording, a result's text, a message's last block, both versions of a streamed tool input).
 * Each fires here on rows carrying the canary in every payload field; nothing of it may leave.
 */
describe('detectors that collect their own facts never let payload out', () => {
  const c = newCanary();
  const dir = join(tmp, 'project');
  mkdirSync(dir);
  const row = (o: object) => ({ sessionId: `s-${c}`, cwd: `/home/${c}`, version: '2.1.160', timestamp: '2026-06-02T10:00:00.000Z', uuid: c, ...o });
  const assistant = (id: string, content: unknown[], stop: string | null, extra: object = {}) =>
    row({ type: 'assistant', message: { id, role: 'assistant', model: 'claude-opus-4-8', content, stop_reason: stop }, ...extra });
  const user = (content: unknown) => row({ type: 'user', message: { role: 'user', content } });
  const transcript = [
    user(`prompt ${c}`),
    assistant(`msg_${c}_1`, [{ type: 'tool_use', id: `toolu_${c}_1`, name: `mcp__${c}`, input: { [c]: c } }], 'tool_use'),
    user([{ type: 'tool_result', tool_use_id: `toolu_${c}_1`, content: [{ type: 'text', text: `[Tool result missing due to internal error] ${c}` }] }]),
    assistant(`msg_${c}_2`, [{ type: 'tool_use', id: `toolu_${c}_2`, name: 'Bash', input: { command: c } }], 'tool_use'),
    assistant(`${c}-synthetic`, [{ type: 'text', text: `API Error: 400 \`tool_use\` ids were found without \`tool_result\` blocks ${c}` }], 'stop_sequence', {
      isApiErrorMessage: true,
      error: c,
    }),
    assistant(
      `msg_${c}_3`,
      [
        { type: 'text', text: c },
        { type: 'tool_use', id: `toolu_${c}_3`, name: 'Write', input: { content: c } },
      ],
      'max_tokens',
    ),
  ];
  writeFileSync(join(dir, 'collected.jsonl'), transcript.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const ev = (event: object) => ({ type: 'stream_event', event, session_id: `session-${c}`, uuid: c });
  const capture = [
    { type: 'system', subtype: 'init', session_id: `session-${c}`, cwd: `/home/${c}`, claude_code_version: '2.1.215', uuid: c },
    ev({ type: 'message_start', message: { id: `msg_${c}_s`, model: 'claude-opus-4-8', content: [] } }),
    ev({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_${c}_s`, name: c, input: {} } }),
    ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify({ [c]: c, keep: c }) } }),
    ev({ type: 'content_block_stop', index: 0 }),
    { type: 'assistant', message: { id: `msg_${c}_s`, content: [{ type: 'tool_use', id: `toolu_${c}_s`, name: c, input: { [c]: c } }] }, uuid: c },
    ev({ type: 'message_delta', delta: { stop_reason: 'tool_use' } }),
  ];
  writeFileSync(join(dir, 'capture.jsonl'), capture.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const codes = ['tool_result_internal_error', 'api_tool_pairing_error', 'truncated_tool_use', 'input_mismatch'];

  it('in analyses for the index: every collecting detector fires, the canary is nowhere', () => {
    const all = ['collected.jsonl', 'capture.jsonl'].map((f) => analyseFile(join(dir, f), { forIndex: true }));
    const text = JSON.stringify(all, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    for (const code of codes) expect(text).toContain(`"code":"${code}"`);
    expect(text).not.toContain(c);
  });

  it('in scan --json and the text report', () => {
    for (const options of [['--json'], []]) {
      const run = runCli(['scan', ...options, dir], { env: { COLUMNS: '300' } });
      const output = run.stdout + run.stderr;
      for (const code of codes) expect(output).toContain(code);
      expect(output).not.toContain(c);
    }
  });
});
