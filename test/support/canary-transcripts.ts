import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A fresh canary per run, so no test can pass by knowing it in advance. */
export function newCanary(): string {
  return 'CANARY' + randomBytes(6).toString('hex').toUpperCase();
}

/**
 * Writes transcripts that plant `canary` in every payload field Claude Code writes (text,
 * thinking, signatures, tool names, inputs, results, ids, cwd, branch, prompts, summaries,
 * attachments, model and version strings that fail their patterns, block type names), with
 * failures the detectors must find, plus files that fail to scan with the canary on the bad line.
 * Returns the folder to scan. With canaryInNames (the default) the folders are named after the
 * canary too, so an absolute path in any output shows up; the index's own privacy test turns
 * that off, since a root's path is kept (only) in the local database.
 */
export function writeCanaryTranscripts(parent: string, canary: string, options: { canaryInNames?: boolean } = {}): string {
  const inNames = options.canaryInNames ?? true;
  const name = inNames ? canary : 'x';
  const root = join(parent, `outside-${name}`, 'root');
  const project = join(root, `-home-${name}-project`);
  mkdirSync(join(project, `session-${name}`, 'subagents'), { recursive: true });
  const c = canary;
  const env = (extra: object) => ({
    parentUuid: `parent-${c}`,
    isSidechain: false,
    userType: `external-${c}`,
    cwd: `/home/${c}/work`,
    sessionId: `session-${c}`,
    version: '2.1.40',
    gitBranch: `branch-${c}`,
    slug: `slug-${c}`,
    uuid: `uuid-${c}-${Math.random()}`,
    timestamp: '2026-05-29T10:00:00.000Z',
    promptId: `prompt-${c}`,
    entrypoint: `cli-${c}`,
    ...extra,
  });
  const assistant = (id: string, content: unknown[], stop: string | null, extra: object = {}) =>
    env({
      type: 'assistant',
      requestId: `req_${c}`,
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-8',
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 2, service_tier: `tier-${c}` },
      },
      ...extra,
    });
  const rows = [
    { type: 'summary', summary: `summary ${c}`, leafUuid: `leaf-${c}` },
    env({ type: 'user', message: { role: 'user', content: `prompt text ${c}` } }),
    env({
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: `user block ${c}` },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: `${c}AAAA` } },
        ],
      },
    }),
    assistant(`msg_${c}_1`, [{ type: 'thinking', thinking: `thinking ${c}`, signature: `sig-${c}` }], 'tool_use'),
    assistant(`msg_${c}_1`, [{ type: 'text', text: `visible text ${c}` }], 'tool_use'),
    assistant(`msg_${c}_2`, [{ type: 'tool_use', id: `toolu_${c}`, name: `mcp__${c}__tool`, input: {}, caller: { type: `direct-${c}` } }], 'tool_use'),
    env({
      type: 'user',
      toolUseResult: `Error: ${c}`,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${c}`, is_error: true, content: `<tool_use_error>${c} missing</tool_use_error>` }],
      },
    }),
    assistant(`msg_${c}_3`, [{ type: 'tool_use', id: `toolu2_${c}`, name: 'Bash', input: { command: `echo ${c}`, [`key_${c}`]: c } }], 'tool_use'),
    env({
      type: 'user',
      toolUseResult: { stdout: c, stderr: c },
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu2_${c}`, content: [{ type: 'text', text: `result ${c}` }] }] },
    }),
    assistant(
      `msg_${c}_4`,
      [
        { type: `CustomBlock${c}`, data: c },
        { type: 'text', text: c },
      ],
      'end_turn',
    ),
    env({
      type: 'assistant',
      requestId: `req2_${c}`,
      message: {
        id: `msg_${c}_5`,
        type: 'message',
        role: 'assistant',
        model: `model ${c}`,
        content: [{ type: 'text', text: c }],
        stop_reason: 'tool_use',
        usage: {},
      },
      version: `version-${c}`,
    }),
    // A harness-written synthetic row (stored as a flagged message, counted apart) and a legacy-era row with no stop reason.
    env({
      type: 'assistant',
      isApiErrorMessage: true,
      error: `rate_limit_${c}`,
      apiError: c,
      message: {
        id: `msg_${c}_6`,
        role: 'assistant',
        model: '<synthetic>',
        content: [{ type: 'text', text: `API Error: ${c}` }],
        stop_reason: 'stop_sequence',
      },
    }),
    assistant(`msg_${c}_7`, [{ type: 'tool_use', id: `toolu3_${c}`, name: `Tool${c}`, input: { [c]: c } }], null),
    env({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu3_${c}`, content: c }] } }),
    env({ type: 'system', subtype: 'stop_hook_summary', content: `system ${c}`, hookInfos: [{ command: c }] }),
    env({ type: 'attachment', attachment: { type: 'hook_additional_context', content: c } }),
    { type: 'file-history-snapshot', messageId: `snap-${c}`, snapshot: { trackedFileBackups: { [`/home/${c}`]: {} }, timestamp: '2026-05-29T10:00:00Z' } },
    { type: `unknown-${c}`, [c]: c },
  ];
  writeFileSync(join(project, `session-${name}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  // Issue 33, the 2.1.2xx format: effort (a real one and a canary that fails its pattern), the attribution keys
  // (MCP server and tool names are payload), the partial text kept on an interrupt, a thinking-only reply cut at
  // max_tokens, the synthetic limit text, rows without uuid and newer attachment types, all holding the canary.
  const recent = (extra: object) => env({ version: '2.1.220', timestamp: '2026-06-14T06:41:15.762Z', ...extra });
  const recentAssistant = (id: string, content: unknown[], stop: string | null, extra: object = {}) =>
    recent({
      type: 'assistant',
      requestId: `req_${c}`,
      effort: 'xhigh',
      attributionSkill: `skill-${c}`,
      attributionPlugin: `plugin-${c}`,
      attributionMcpServer: `server-${c}`,
      attributionMcpTool: `tool-${c}`,
      advisorModel: `advisor-${c}`,
      message: { id, type: 'message', role: 'assistant', model: 'claude-opus-4-8', content, stop_reason: stop, usage: { output_tokens: 64000, [c]: c } },
      ...extra,
    });
  const recentRows = [
    recent({ type: 'user', promptSource: `source-${c}`, origin: { kind: c }, session_id: `session-${c}`, message: { role: 'user', content: `prompt ${c}` } }),
    recentAssistant(`msg_${c}_r1`, [{ type: 'thinking', thinking: `thinking ${c}`, signature: `sig-${c}` }], 'max_tokens'),
    { type: 'last-prompt', lastPrompt: `prompt ${c}`, leafUuid: `leaf-${c}`, sessionId: `session-${c}` },
    { type: 'ai-title', aiTitle: `title ${c}`, sessionId: `session-${c}` },
    { type: 'atis-latch', atis: c, sessionId: `session-${c}` },
    { type: 'cost-state', [c]: c },
    { type: 'worktree-state', path: `/home/${c}` },
    recent({ type: 'attachment', attachment: { type: 'total_tokens_reminder', content: c } }),
    recent({ type: 'attachment', attachment: { type: 'async_hook_response', response: c } }),
    recent({ type: 'attachment', attachment: { type: `new-${c}`, content: c } }),
    recent({ type: 'user', message: { role: 'user', content: `second prompt ${c}` } }),
    recentAssistant(`msg_${c}_r2`, [{ type: 'text', text: `partial ${c}` }], null, { isAbortedMidStream: true, effort: `E${c}` }),
    recent({ type: 'user', message: { role: 'user', content: '[Request interrupted by user]' } }),
    recent({ type: 'user', message: { role: 'user', content: `third prompt ${c}` } }),
    recent({
      type: 'assistant',
      isApiErrorMessage: true,
      error: 'rate_limit',
      apiErrorStatus: 429,
      message: {
        id: `msg_${c}_r3`,
        role: 'assistant',
        model: '<synthetic>',
        content: [{ type: 'text', text: `You've hit your session limit · resets ${c}` }],
        stop_reason: 'stop_sequence',
      },
    }),
  ];
  writeFileSync(join(project, 'format-2026.jsonl'), recentRows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(
    join(project, `session-${name}`, 'subagents', `agent-${name}.jsonl`),
    JSON.stringify(
      env({
        type: 'assistant',
        isSidechain: true,
        agentId: c,
        message: { id: `msg_${c}_9`, role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: c }], stop_reason: 'tool_use' },
      }),
    ) + '\n',
  );
  // Timestamps that are not ISO-8601 date-times (the canary in, around or instead of one): the
  // file is fine, and its first/last row times must come out null, never the text.
  writeFileSync(
    join(project, 'timestamps.jsonl'),
    [
      { type: 'summary', summary: 's', timestamp: `2026-05-29T10:00:00Z ${c}` },
      { type: 'summary', summary: 's', timestamp: `${c}2026-05-29T10:00:00Z` },
      { type: 'summary', summary: 's', timestamp: c.repeat(1000) },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  // What real transcripts hold (issues 12 and 21): unparseable tool input (the canary in raw, in a string len, in the
  // tool name and beside the key), refusals of every kind quoting the canary, compaction, a call open at the end.
  const kinds = [
    `<tool_use_error>InputValidationError: Read was called with input that could not be parsed as JSON. ${c}</tool_use_error>`,
    `<tool_use_error>InputValidationError: ${c} failed due to the following issue:\nThe required parameter \`${c}\` is missing</tool_use_error>`,
    `<tool_use_error>InputValidationError: ${c} failed\n\nThis tool's schema was not sent to the API ${c}</tool_use_error>`,
    `<tool_use_error>Error: No such tool available: mcp__${c}</tool_use_error>`,
    `<tool_use_error>Sibling tool call errored</tool_use_error>`,
    `Permission for this action was denied by the Claude Code auto mode classifier. Reason: ${c}`,
    `The user doesn't want to proceed with this tool use. ${c}`,
    `PreToolUse:Bash hook error: [${c}]: ${c}`,
  ];
  const shapes = [
    env({ type: 'user', message: { role: 'user', content: `go ${c}` } }),
    assistant(
      `msg_${c}_u1`,
      [{ type: 'tool_use', id: `toolu_u1_${c}`, name: 'Read', input: { __unparsedToolInput: { raw: `{"file_path": "${c}`, len: 17 } } }],
      'tool_use',
    ),
    env({
      type: 'user',
      toolUseResult: `InputValidationError: JSON parse failed (${c} bytes)`,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_u1_${c}`, is_error: true, content: kinds[0] }] },
    }),
    assistant(
      `msg_${c}_u2`,
      [{ type: 'tool_use', id: `toolu_u2_${c}`, name: `mcp__${c}`, input: { __unparsedToolInput: { raw: c, len: c }, [c]: c } }],
      'tool_use',
    ),
    ...kinds.flatMap((text, i) => [
      assistant(
        `msg_${c}_k${i}`,
        [{ type: 'tool_use', id: `toolu_k${i}_${c}`, name: i % 2 ? `mcp__${c}` : 'Bash', input: i % 3 ? {} : { [c]: c } }],
        'tool_use',
      ),
      env({
        type: 'user',
        toolUseResult: `Error: ${text}`,
        toolDenialKind: i === 6 ? `kind-${c}` : undefined,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_k${i}_${c}`, is_error: true, content: [{ type: 'text', text }] }] },
      }),
    ]),
    assistant(`msg_${c}_c1`, [{ type: 'tool_use', id: `toolu_c1_${c}`, name: 'Bash', input: { command: c } }], 'tool_use'),
    env({ type: 'progress', data: { type: 'bash_progress', output: c, fullOutput: c }, toolUseID: `bash-progress-${c}`, parentToolUseID: `toolu_c1_${c}` }),
    env({ type: 'system', subtype: 'compact_boundary', content: c, compactMetadata: { trigger: c, preTokens: 1 }, logicalParentUuid: c }),
    env({ type: 'system', subtype: `subtype-${c}`, content: c }),
    env({ type: 'user', isCompactSummary: true, message: { role: 'user', content: `This session is being continued ${c}` } }),
    assistant(`msg_${c}_o1`, [{ type: 'tool_use', id: `toolu_o1_${c}`, name: 'Bash', input: { command: c } }], null),
    env({ type: 'progress', data: { type: 'hook_progress', hookName: c }, toolUseID: c, parentToolUseID: `toolu_o1_${c}` }),
    { type: 'custom-title', customTitle: c, sessionId: c },
  ];
  // Issue 28's redacted shapes: {} refused for a missing parameter on a built-in tool, once naming one of its own
  // parameters (reported) and once naming the canary (never reported); a missing block with its output tokens.
  const refusals = [
    [
      'Read',
      `<tool_use_error>InputValidationError: Read failed due to the following issue:\nThe required parameter \`file_path\` is missing ${c}</tool_use_error>`,
    ],
    ['Bash', `<tool_use_error>InputValidationError: Bash failed due to the following issue:\nThe required parameter \`${c}\` is missing</tool_use_error>`],
    [
      'Bash',
      `<tool_use_error>InputValidationError: Bash failed due to the following issue:\nThe required parameter \`file_path\` is missing ${c}</tool_use_error>`,
    ],
  ] as const;
  const shapes28 = [
    ...refusals.flatMap(([tool, text], i) => [
      assistant(`msg_${c}_m${i}`, [{ type: 'tool_use', id: `toolu_m${i}_${c}`, name: tool, input: {} }], 'tool_use'),
      env({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_m${i}_${c}`, is_error: true, content: text }] } }),
    ]),
    assistant(`msg_${c}_t1`, [{ type: 'thinking', thinking: c, signature: `sig-${c}` }], 'tool_use', { entrypoint: 'sdk-ts' }),
  ];
  writeFileSync(join(project, 'issue-28-shapes.jsonl'), shapes28.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(join(project, 'real-shapes.jsonl'), shapes.map((r) => JSON.stringify(r)).join('\n') + '\n');
  // Damaged lines: two whole rows on one line, and a torn row before a whole one (read with salvage).
  const whole = (i: number) => JSON.stringify(assistant(`msg_${c}_d${i}`, [{ type: 'text', text: `damaged ${c}` }], 'end_turn'));
  const snapshot = JSON.stringify({
    type: 'file-history-snapshot',
    messageId: c,
    snapshot: { messageId: c, trackedFileBackups: {}, timestamp: c },
    isSnapshotUpdate: false,
  });
  writeFileSync(join(project, 'damaged-concatenated.jsonl'), [whole(1), whole(2) + snapshot, whole(3)].join('\n') + '\n');
  writeFileSync(join(project, 'damaged-torn.jsonl'), [whole(4), whole(5).slice(0, whole(5).indexOf(c) + 3) + whole(6), whole(7)].join('\n') + '\n');
  // A stream-json capture whose run died after the malformed-call retry, the canary everywhere but the terminal reason.
  const event = (e: object) => ({ type: 'stream_event', event: e, parent_tool_use_id: null, session_id: `session-${c}`, uuid: `u-${c}` });
  const capture = [
    {
      type: 'system',
      subtype: 'init',
      session_id: `session-${c}`,
      cwd: `/home/${c}`,
      tools: [c],
      model: 'claude-opus-4-8',
      claude_code_version: '2.1.215',
      uuid: c,
    },
    event({ type: 'message_start', message: { id: `msg_${c}_s`, type: 'message', role: 'assistant', model: 'claude-opus-4-8', content: [], usage: {} } }),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: c } }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: c } }),
    event({ type: 'content_block_stop', index: 0 }),
    event({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } }),
    {
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
      result: c,
      session_id: `session-${c}`,
      terminal_reason: 'malformed_tool_use_exhausted',
      errors: [c],
      uuid: c,
    },
  ];
  writeFileSync(join(project, 'capture.jsonl'), capture.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const odd = capture.map((r) => (r.type === 'result' ? { ...r, terminal_reason: `reason ${c}` } : r));
  writeFileSync(join(project, 'capture-odd-reason.jsonl'), odd.map((r) => JSON.stringify(r)).join('\n') + '\n');
  // Files that fail, each with the canary on or around the failing line.
  writeFileSync(join(project, 'malformed.jsonl'), `{"type":"user","message":{"content":"${c}"}}\n{"type":"assistant","text":"${c}\n`);
  writeFileSync(join(project, 'duplicate.jsonl'), `{"type":"summary","${c}":1,"${c}":2}\n`);
  writeFileSync(join(project, 'structure.jsonl'), JSON.stringify({ type: 'assistant', message: { id: c, content: c } }) + '\n');
  writeFileSync(join(project, 'utf8.jsonl'), Buffer.concat([Buffer.from(`{"type":"summary","summary":"${c}`), Buffer.from([0xff]), Buffer.from('"}\n')]));
  return root;
}
