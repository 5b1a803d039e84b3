import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyTurnEnds } from '../../server/detect/classify-turn-ends';
import { API_ERROR_KINDS, apiErrorKindOf } from '../../server/scan/harness-markers';
import { scanFile } from '../../server/scan/scan-file';
import { openDatabase } from '../../server/store/database';
import { TURN_END_API_ERROR_KINDS, TURN_ENDS } from '../../shared/turn-ends';

const dir = mkdtempSync(join(tmpdir(), 'tcf-turn-ends-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let uuid = 0;
const env = (extra: object) => ({
  parentUuid: null,
  isSidechain: false,
  userType: 'external',
  cwd: '/home/dev/p',
  sessionId: 's-turns',
  version: '2.1.220',
  uuid: `u${uuid++}`,
  timestamp: '2026-11-30T10:00:00.000Z',
  ...extra,
});
const A = (id: string, content: unknown[], stop: string | null, extra: object = {}) =>
  env({ type: 'assistant', message: { id, type: 'message', role: 'assistant', model: 'claude-opus-4-8', content, stop_reason: stop }, ...extra });
const SYN = (id: string, text: string) =>
  env({
    type: 'assistant',
    isApiErrorMessage: true,
    message: { id, type: 'message', role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text }], stop_reason: 'stop_sequence' },
  });
const U = (content: unknown, extra: object = {}) => env({ type: 'user', message: { role: 'user', content }, ...extra });
const text = { type: 'text', text: 'done' };
const thinking = { type: 'thinking', thinking: '', signature: 'sig' };
const call = (id: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } });
const result = (id: string) => U([{ type: 'tool_result', tool_use_id: id, content: 'ok' }]);
const INTERRUPT = '[Request interrupted by user]';

function ends(rows: object[]) {
  const path = join(dir, `t-${uuid}.jsonl`);
  writeFileSync(path, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const scan = scanFile(path);
  if (scan.status !== 'ok') throw new Error(`did not scan: ${scan.status}`);
  return classifyTurnEnds(scan.transcript).map((t) => ({ end: t.end, kind: t.apiErrorKind, last: t.last, effort: t.message.effort }));
}

describe('classifyTurnEnds', () => {
  it('classes every turn, not just the last: one end per prompt, the last flagged', () => {
    const got = ends([
      U('one'),
      A('m1', [call('t1')], 'tool_use'),
      result('t1'),
      A('m2', [text], 'end_turn'),
      U('two'),
      A('m3', [thinking], 'end_turn'),
      U('three'),
      A('m4', [thinking], 'max_tokens'),
      A('m5', [text], 'end_turn'),
      U('four'),
      A('m6', [text], 'max_tokens'),
    ]);
    expect(got.map((t) => t.end)).toEqual(['text_answer', 'said_nothing', 'text_answer', 'cut_in_text']);
    expect(got.map((t) => t.last)).toEqual([false, false, false, true]);
  });

  it('splits max_tokens by what was cut; a cut the user then interrupted keeps its cut class', () => {
    expect(ends([U('a'), A('m1', [thinking], 'max_tokens'), U(INTERRUPT), U('b'), A('m2', [thinking, call('t')], 'max_tokens')]).map((t) => t.end)).toEqual([
      'cut_while_thinking',
      'cut_in_call',
    ]);
  });

  it('an interrupt ends a turn; a prompt right after it ends none; the partial text kept on an interrupt is no reply', () => {
    const got = ends([
      U('a'),
      A('m1', [call('t1')], 'tool_use'),
      U([
        { type: 'tool_result', tool_use_id: 't1', content: INTERRUPT, is_error: true },
        { type: 'text', text: INTERRUPT },
      ]),
      U('b'),
      A('m2', [text], null, { isAbortedMidStream: true }),
      U(INTERRUPT),
      U('c'),
      A('m3', [text], 'end_turn'),
    ]);
    expect(got.map((t) => t.end)).toEqual(['interrupted', 'interrupted', 'text_answer']);
  });

  it('an error row written by the harness ends its turn as api_error with its kind; a retried error does not', () => {
    const got = ends([
      U('a'),
      SYN('e1', "You've hit your session limit · resets 12:40pm"),
      U('b'),
      A('m1', [text], 'end_turn'),
      SYN('e2', 'API Error: 529 Overloaded. This is a server-side issue'),
      U('c'),
      SYN('e3', 'API Error: 500 {"type":"error"}'),
      A('m2', [text], 'end_turn'),
    ]);
    expect(got.map((t) => [t.end, t.kind])).toEqual([
      ['api_error', 'rate_limit'],
      ['api_error', 'server_error'],
      ['text_answer', null],
    ]);
  });

  it("takes a message's effort from its row, else the nearest earlier row's; null before any", () => {
    const got = ends([
      U('a'),
      A('m1', [text], 'end_turn'),
      U('b'),
      A('m2', [text], 'end_turn', { effort: 'xhigh' }),
      U('c'),
      A('m3', [text], 'end_turn'),
      U('d'),
      A('m4', [text], 'end_turn', { effort: 'Not An Effort' }),
    ]);
    expect(got.map((t) => t.effort)).toEqual([null, 'xhigh', 'xhigh', 'xhigh']);
  });

  it('reads 2.1.2xx rows without uuid and attachment types it has never seen without failing the file', () => {
    const got = ends([
      U('a'),
      { type: 'atis-latch', atis: 'x', sessionId: 's' },
      { type: 'cost-state', total: 1 },
      { type: 'some-future-row' },
      env({ type: 'attachment', attachment: { type: 'total_tokens_reminder', content: 'x' } }),
      env({ type: 'attachment', attachment: { type: 'a_type_from_the_future', content: 'x' } }),
      A('m1', [text], 'end_turn', { effort: 'high', attributionMcpServer: 's', attributionMcpTool: 't' }),
    ]);
    expect(got.map((t) => [t.end, t.effort])).toEqual([['text_answer', 'high']]);
  });

  it("leaves a main file's subagent prompts out of its turns", () => {
    const got = ends([
      U('a'),
      A('m1', [call('t1')], 'tool_use'),
      U('sub prompt', { isSidechain: true }),
      A('s1', [text], 'end_turn', { isSidechain: true }),
      result('t1'),
      A('m2', [text], 'end_turn'),
    ]);
    expect(got.map((t) => t.end)).toEqual(['text_answer']);
  });
});

describe('API error kinds', () => {
  it('classes the harness texts FORMAT.md lists by their fixed prefixes', () => {
    const cases: [string, string][] = [
      ["You've hit your limit · resets 5pm", 'rate_limit'],
      ["You've hit your monthly spend limit · raise it at https://x", 'rate_limit'],
      ["You've hit your weekly limit · resets Mon", 'rate_limit'],
      ['API Error: Request rejected (429) · This request would exceed', 'rate_limit'],
      ['Not logged in · Please run /login', 'authentication'],
      ['Login expired · Please run /login', 'authentication'],
      ['Please run /login · API Error: 401 {}', 'authentication'],
      ['Failed to authenticate. API Error: 401 {}', 'authentication'],
      ['API Error: 500 {"type":"error","error":{"type":"api_error"', 'server_error'],
      ['API Error: 529 Overloaded. This is a server-side issue', 'server_error'],
      ['API Error: Response stalled mid-stream. ', 'server_error'],
      ['API Error: Request timed out.', 'timeout'],
      ['API Error: Unable to connect to API (ConnectionRefused)', 'connection'],
      ['API Error: The socket connection was closed unexpectedly', 'connection'],
      ['API Error: 400 {"error":{"code":', 'bad_request'],
      ["The model's tool call could not be parsed (retry also failed).", 'retry_exhausted'],
      ['No response requested.', 'no_response_requested'],
      ['Something else entirely', 'other'],
      ["Note: You've hit your limit (quoted, not at the start)", 'other'],
    ];
    for (const [t, kind] of cases) expect(apiErrorKindOf(t), t).toBe(kind);
  });

  it('one vocabulary: the scanner, the API and the index hold the same kinds and classes', () => {
    expect([...API_ERROR_KINDS]).toEqual([...TURN_END_API_ERROR_KINDS]);
    const db = openDatabase(join(dir, 'vocab.db'));
    try {
      expect(db.prepare('SELECT name FROM turn_end_kinds ORDER BY name').pluck().all()).toEqual([...TURN_ENDS].sort());
      const sql = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'turn_ends'").pluck().get() as string;
      for (const k of TURN_END_API_ERROR_KINDS) expect(sql).toContain(`'${k}'`);
    } finally {
      db.close();
    }
  });
});
