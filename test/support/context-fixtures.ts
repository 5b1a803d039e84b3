import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RETRY_EXHAUSTED, RETRY_NUDGES } from '../../server/scan/harness-markers';

/**
 * Four small transcripts for a finding's context (issue 16), with `canary` planted in every
 * payload field of every row around the findings: text, thinking, signatures, MCP tool names,
 * inputs, results, cwd, branch, ids, request ids, slugs, hook commands and summaries.
 * Timestamps step by 2 s per row, so "seconds since previous" is exact. Returns the root.
 *
 * - chain.jsonl: a missing tool_use block (line 2), the retry nudge (3), the retry also
 *   missing its block (4), and the "retry also failed" row (5).
 * - run.jsonl: Read called with {} three times, each answered by an error (lines 2–7).
 * - compaction.jsonl: a {} call answered by an error (2, 3), a hook row, then compaction (5, 6).
 * - interrupt.jsonl: an MCP call with {} refused for a missing parameter (2, 3), then the user's interrupt row (4).
 *   (A {} call answered by the interrupt itself is a refusal, not lost arguments: no finding.)
 */
export function writeContextFixtures(parent: string, canary: string): string {
  const c = canary;
  const root = join(parent, 'root');
  const project = join(root, '-home-user-project');
  mkdirSync(project, { recursive: true });
  let second = 0;
  const env = (session: string, extra: object) => ({
    parentUuid: `parent-${c}`,
    isSidechain: false,
    userType: 'external',
    cwd: `/home/${c}/work`,
    sessionId: `${session}-${c}`,
    version: '2.1.90',
    gitBranch: `branch-${c}`,
    slug: `slug-${c}`,
    uuid: `uuid-${c}-${second}`,
    timestamp: new Date(Date.UTC(2026, 4, 29, 10, 0, (second += 2))).toISOString(),
    ...extra,
  });
  const assistant = (session: string, id: string, content: unknown[], stop: string | null, extra: object = {}) =>
    env(session, {
      type: 'assistant',
      requestId: `req_${c}`,
      message: {
        id: `${id}_${c}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-8',
        content,
        stop_reason: stop,
        usage: { input_tokens: 1, output_tokens: 40 },
      },
      ...extra,
    });
  const prompt = (session: string) => env(session, { type: 'user', message: { role: 'user', content: `prompt ${c}` } });
  const result = (session: string, id: string, text: string, isError: boolean) =>
    env(session, {
      type: 'user',
      toolUseResult: `Error: ${c}`,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `${id}_${c}`, is_error: isError, content: text }] },
    });
  const write = (name: string, rows: object[]) => writeFileSync(join(project, name), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

  write('chain.jsonl', [
    prompt('s1'),
    assistant('s1', 'msg_a', [{ type: 'text', text: `I will call it ${c}` }], 'tool_use'),
    env('s1', { type: 'user', isMeta: true, message: { role: 'user', content: RETRY_NUDGES[0] } }),
    assistant('s1', 'msg_b', [{ type: 'thinking', thinking: `thinking ${c}`, signature: `sig-${c}` }], 'tool_use'),
    env('s1', {
      type: 'assistant',
      isApiErrorMessage: true,
      message: {
        id: `synthetic-${c}`,
        role: 'assistant',
        model: '<synthetic>',
        content: [{ type: 'text', text: RETRY_EXHAUSTED }],
        stop_reason: 'stop_sequence',
      },
    }),
  ]);
  write('run.jsonl', [
    prompt('s1'),
    assistant('s1', 'msg_r1', [{ type: 'tool_use', id: `t1_${c}`, name: 'Read', input: {} }], 'tool_use'),
    result('s1', 't1', `<tool_use_error>${c}</tool_use_error>`, true),
    assistant('s1', 'msg_r2', [{ type: 'tool_use', id: `t2_${c}`, name: 'Read', input: {} }], 'tool_use'),
    result('s1', 't2', `<tool_use_error>${c}</tool_use_error>`, true),
    assistant('s1', 'msg_r3', [{ type: 'tool_use', id: `t3_${c}`, name: 'Read', input: {} }], 'tool_use'),
    result('s1', 't3', `<tool_use_error>${c}</tool_use_error>`, true),
    assistant('s1', 'msg_r4', [{ type: 'text', text: `done ${c}` }], 'end_turn'),
  ]);
  write('compaction.jsonl', [
    prompt('s2'),
    assistant('s2', 'msg_c1', [{ type: 'tool_use', id: `c1_${c}`, name: 'Bash', input: {} }], 'tool_use'),
    result('s2', 'c1', `failed ${c}`, true),
    env('s2', { type: 'progress', data: { type: 'hook_progress', hookEvent: 'PostToolUse', hookName: `hook-${c}`, command: `echo ${c}` } }),
    env('s2', { type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens: 168000 } }),
    env('s2', {
      type: 'user',
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      message: { role: 'user', content: `This session is being continued ${c}` },
    }),
    assistant('s2', 'msg_c2', [{ type: 'text', text: `after ${c}` }], 'end_turn'),
  ]);
  write('interrupt.jsonl', [
    prompt('s3'),
    assistant('s3', 'msg_i1', [{ type: 'tool_use', id: `i1_${c}`, name: `mcp__${c}__tool`, input: {} }], 'tool_use'),
    result(
      's3',
      'i1',
      '<tool_use_error>InputValidationError: tool failed due to the following issue:\nThe required parameter `q` is missing</tool_use_error>',
      true,
    ),
    env('s3', { type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] } }),
    assistant('s3', 'msg_i2', [{ type: 'text', text: `ok ${c}` }], 'end_turn'),
  ]);
  return root;
}
