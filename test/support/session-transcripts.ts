import type { SessionEnd } from '../../shared/session-ends';

/**
 * Builds small Claude Code transcripts (JSONL text) that end in each way a session can end,
 * for the session-end classifier, the Stop hook and the live watcher. `canary` is planted in
 * every payload field (text, thinking, signature, tool name and input, result, ids, cwd,
 * branch, session id, prompt), so a test can check that none of it reaches any output.
 */
export function sessionRows(end: SessionEnd, canary = 'PAYLOAD', options: { version?: string; idPrefix?: string } = {}): string[] {
  const c = canary;
  const version = options.version ?? '2.1.90';
  const p = options.idPrefix ?? 'a';
  let uuid = 0;
  const env = (extra: object) => ({
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: `/home/${c}/work`,
    sessionId: `session-${c}`,
    version,
    gitBranch: `branch-${c}`,
    uuid: `uuid-${c}-${p}-${uuid++}`,
    timestamp: '2026-11-30T10:00:00.000Z',
    ...extra,
  });
  const assistant = (id: string, content: unknown[], stop: string | null, extra: object = {}) =>
    JSON.stringify(
      env({
        type: 'assistant',
        requestId: `req_${c}`,
        message: { id: `msg_${p}_${c}_${id}`, type: 'message', role: 'assistant', model: 'claude-opus-4-8', content, stop_reason: stop, stop_sequence: null },
        ...extra,
      }),
    );
  const user = (content: unknown, extra: object = {}) => JSON.stringify(env({ type: 'user', message: { role: 'user', content }, ...extra }));
  const thinking = { type: 'thinking', thinking: `thinking ${c}`, signature: `sig-${c}` };
  const text = { type: 'text', text: `answer ${c}` };
  const call = (n: number) => ({ type: 'tool_use', id: `toolu_${p}_${c}_${n}`, name: `Tool${c}`, input: { arg: c } });
  const result = (n: number, body = `result ${c}`) => user([{ type: 'tool_result', tool_use_id: `toolu_${p}_${c}_${n}`, content: body }]);

  const rows = [user(`prompt ${c}`), assistant('1', [thinking], 'tool_use'), assistant('1', [call(1)], 'tool_use'), result(1)];
  switch (end) {
    case 'tool_call':
      rows.push(assistant('2', [call(2)], 'tool_use'));
      break;
    case 'text_answer':
      rows.push(assistant('2', [thinking], 'end_turn'), assistant('2', [text], 'end_turn'));
      break;
    case 'said_nothing':
      rows.push(assistant('2', [thinking], 'end_turn'));
      break;
    case 'max_tokens':
      rows.push(assistant('2', [text], 'max_tokens'));
      break;
    case 'interrupted':
      rows.push(assistant('2', [call(2)], 'tool_use'), result(2, `error ${c}`), user([{ type: 'text', text: '[Request interrupted by user for tool use]' }]));
      break;
    case 'api_error':
      rows.push(
        assistant('2', [text], 'end_turn'),
        user(`another prompt ${c}`),
        JSON.stringify(
          env({
            type: 'assistant',
            isApiErrorMessage: true,
            message: {
              id: `6f1c2a4e-${p}-4000-8000-000000000001`,
              type: 'message',
              role: 'assistant',
              model: '<synthetic>',
              content: [{ type: 'text', text: 'API Error: 529 overloaded' }],
              stop_reason: 'stop_sequence',
              stop_sequence: '',
            },
          }),
        ),
      );
      break;
    case 'lost_call':
      rows.push(assistant('2', [thinking], 'tool_use'), assistant('2', [text], 'tool_use'));
      break;
    case 'unknown':
      rows.push(assistant('2', [text], null));
      break;
  }
  return rows;
}

export const sessionText = (end: SessionEnd, canary?: string, options?: { version?: string; idPrefix?: string }) =>
  sessionRows(end, canary, options).join('\n') + '\n';
