import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Copilot CLI, Pi and Gemini CLI sessions written by the project (no ../shared), in the folders
 * each agent keeps on a user's machine (corpus/agents/SOURCES.md, "On a user's machine"):
 *
 *   .copilot/session-state/<uuid>/events.jsonl (+ workspace.yaml, session.db beside it)
 *   .pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl
 *   .gemini/tmp/<project>/chats/session-*.json (whole JSON) and session-*.jsonl (the same session, appended)
 *   .gemini/tmp/<project>/logs.json (a prompt log: passed over), checkpoint-<tag>.json (refused gemini_text_only)
 *
 * `c` is planted in every payload field (text, thinking, arguments, results, errors, ids, cwd,
 * custom tool names, summaries, hook input/output): the ordinary tests pass a plain word, the
 * canary tests a fresh canary. EXPECTED says what each session holds, counted by hand.
 */

export const COPILOT_VERSION = '1.0.64';

/** What each session holds: model messages, calls the model emitted, results paired to them. */
export const EXPECTED = {
  copilot: {
    agent: 'copilot-cli',
    version: COPILOT_VERSION,
    messages: 3,
    calls: 3,
    results: 3,
    models: ['claude-sonnet-4.6', 'claude-opus-4.8'],
    days: ['2026-06-01'],
    events: { hook_errors: 1, denied: 1, permission_denied: 1, tool_errors: 1, aborted: 1, compaction: 1 },
  },
  pi: {
    agent: 'pi',
    version: null,
    messages: 4,
    calls: 3,
    results: 3,
    models: ['claude-opus-4-7', 'gpt-5-mini'],
    days: ['2026-06-01'],
    events: { tool_errors: 1, aborted: 1, error_stops: 1, compaction: 1 },
  },
  gemini: {
    agent: 'gemini-cli',
    version: null,
    messages: 3,
    calls: 3,
    results: 3,
    models: ['gemini-3-flash-preview', 'gemini-3.1-pro-preview'],
    days: ['2026-06-01'],
    events: { tool_errors: 1, cancelled: 1, error_messages: 1 },
  },
} as const;

export interface AgentHome {
  home: string;
  copilotFolder: string;
  copilotFile: string;
  piFolder: string;
  piFile: string;
  geminiFolder: string;
  geminiJson: string;
  geminiJsonl: string;
  geminiLogs: string;
  geminiCheckpoint: string;
}

const at = (s: number) => new Date(Date.UTC(2026, 5, 1, 10, 0, s)).toISOString();
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** Copilot CLI's events.jsonl: 3 model messages (one a sub-agent's), 3 calls, a denial, a failure, an abort, a compaction. */
export function copilotEvents(c: string): string {
  let n = 0;
  const ev = (type: string, data: object) => {
    n++;
    return { type, data, id: `ev-${c}-${n}`, timestamp: at(n), parentId: n > 1 ? `ev-${c}-${n - 1}` : null };
  };
  return jsonl([
    ev('session.start', {
      sessionId: `session-${c}`,
      version: 1,
      producer: 'copilot-agent',
      copilotVersion: COPILOT_VERSION,
      startTime: at(0),
      context: { cwd: `/home/${c}/work`, gitRoot: `/home/${c}`, branch: `branch-${c}` },
    }),
    ev('session.model_change', { newModel: 'claude-sonnet-4.6', reasoningEffort: 'medium' }),
    ev('system.message', { role: 'system', content: `system prompt ${c}` }),
    ev('hook.start', { hookInvocationId: `hook-${c}`, hookType: 'userPromptSubmitted', input: { prompt: `hook input ${c}` } }),
    ev('hook.end', {
      hookInvocationId: `hook-${c}`,
      hookType: 'userPromptSubmitted',
      success: false,
      output: `hook output ${c}`,
      error: { message: `hook error ${c}` },
    }),
    ev('user.message', { content: `prompt ${c}`, transformedContent: `transformed ${c}`, attachments: [{ path: `/home/${c}/a` }], interactionId: `int-${c}` }),
    ev('assistant.turn_start', { turnId: `turn-${c}`, interactionId: `int-${c}` }),
    ev('assistant.message', {
      messageId: `msg-${c}-1`,
      content: `visible text ${c}`,
      reasoningText: `reasoning ${c}`,
      reasoningOpaque: `opaque ${c}`,
      encryptedContent: `encrypted ${c}`,
      outputTokens: 12,
      interactionId: `int-${c}`,
      toolRequests: [
        { toolCallId: `call-${c}-1`, name: 'bash', arguments: { command: `ls ${c}` }, type: 'function', intentionSummary: `intent ${c}` },
        { toolCallId: `call-${c}-2`, name: `${c}-server-tool`, arguments: {}, type: 'function' },
      ],
    }),
    ev('tool.execution_start', { toolCallId: `call-${c}-1`, toolName: 'bash', arguments: { command: `ls ${c}` }, shellToolInfo: { cwd: `/home/${c}` } }),
    ev('tool.execution_start', {
      toolCallId: `call-${c}-2`,
      toolName: `${c}-server-tool`,
      mcpServerName: `server-${c}`,
      mcpToolName: `tool-${c}`,
      arguments: {},
    }),
    ev('tool.execution_complete', { toolCallId: `call-${c}-1`, success: true, result: { content: `output ${c}` }, toolTelemetry: { c } }),
    ev('permission.requested', { requestId: `req-${c}`, permissionRequest: { kind: 'mcp', toolName: c } }),
    ev('permission.completed', { requestId: `req-${c}`, toolCallId: `call-${c}-2`, result: { kind: 'denied-interactively-by-user' } }),
    ev('tool.execution_complete', { toolCallId: `call-${c}-2`, success: false, error: { message: `denied ${c}`, code: 'denied' } }),
    ev('assistant.message', {
      messageId: `msg-${c}-2`,
      model: 'claude-opus-4.8',
      content: `more text ${c}`,
      toolRequests: [{ toolCallId: `call-${c}-3`, name: 'view', arguments: { path: `/home/${c}/f` }, type: 'function' }],
    }),
    ev('tool.execution_start', { toolCallId: `call-${c}-3`, toolName: 'view', arguments: { path: `/home/${c}/f` } }),
    ev('tool.execution_complete', { toolCallId: `call-${c}-3`, success: false, error: { message: `no such file ${c}`, code: 'failure' } }),
    ev('abort', { reason: 'user_initiated' }),
    ev('session.compaction_start', { systemTokens: 1, conversationTokens: 2 }),
    ev('session.compaction_complete', { success: true, summaryContent: `summary ${c}`, checkpointPath: `/home/${c}/cp`, checkpointNumber: 1 }),
    ev('assistant.message', { messageId: `msg-${c}-3`, model: 'claude-opus-4.8', content: `sub-agent text ${c}`, parentToolCallId: `call-${c}-1` }),
    ev('brand.new_event', { value: c }),
    ev('session.shutdown', { shutdownType: 'routine', currentModel: 'claude-opus-4.8', codeChanges: { filesModified: [`/home/${c}/f`] } }),
  ]);
}

/** Pi's session: 4 model messages (one aborted, one an error stop), 3 calls, a tool error, a compaction. */
export function piSession(c: string): string {
  let n = 0;
  const entry = (type: string, fields: object) => {
    n++;
    return { type, id: `${c}-${n}`, parentId: n > 1 ? `${c}-${n - 1}` : null, timestamp: at(n), ...fields };
  };
  const assistant = (content: unknown[], model: string, stopReason: string, extra: object = {}) =>
    entry('message', {
      message: {
        role: 'assistant',
        content,
        api: 'anthropic-messages',
        provider: 'anthropic',
        model,
        usage: { input: 1, output: 30 },
        stopReason,
        timestamp: 1,
        responseId: `resp-${c}`,
        ...extra,
      },
    });
  return jsonl([
    { type: 'session', version: 3, id: `session-${c}`, timestamp: at(0), cwd: `/home/${c}/work`, parentSession: `/home/${c}/old.jsonl` },
    entry('model_change', { provider: 'anthropic', modelId: 'claude-opus-4-7' }),
    entry('thinking_level_change', { thinkingLevel: 'high' }),
    entry('message', { message: { role: 'user', content: `prompt ${c}`, timestamp: 1 } }),
    assistant(
      [
        { type: 'thinking', thinking: `thinking ${c}`, thinkingSignature: `sig-${c}` },
        { type: 'text', text: `visible ${c}` },
        { type: 'toolCall', id: `call-${c}-1`, name: 'read', arguments: { path: `/home/${c}/f` } },
        { type: 'toolCall', id: `call-${c}-2`, name: `ext-${c}`, arguments: {} },
      ],
      'claude-opus-4-7',
      'toolUse',
    ),
    entry('message', {
      message: {
        role: 'toolResult',
        toolCallId: `call-${c}-1`,
        toolName: 'read',
        content: [{ type: 'text', text: `file ${c}` }],
        details: { c },
        isError: false,
      },
    }),
    entry('message', {
      message: { role: 'toolResult', toolCallId: `call-${c}-2`, toolName: `ext-${c}`, content: [{ type: 'text', text: `failed ${c}` }], isError: true },
    }),
    entry('custom', { customType: `ext-${c}`, data: { c } }),
    assistant([{ type: 'text', text: `cut short ${c}` }], 'claude-opus-4-7', 'aborted', { errorMessage: `aborted ${c}` }),
    entry('model_change', { provider: 'openai', modelId: 'gpt-5-mini' }),
    entry('message', { message: { role: 'user', content: [{ type: 'text', text: `again ${c}` }], timestamp: 1 } }),
    assistant([], 'gpt-5-mini', 'error', { errorMessage: `server error ${c}` }),
    entry('compaction', { summary: `summary ${c}`, firstKeptEntryId: `${c}-4`, tokensBefore: 1000, details: { readFiles: [`/home/${c}/f`] } }),
    entry('message', { message: { role: 'bashExecution', command: `echo ${c}`, output: c, exitCode: 0, cancelled: false, truncated: false, timestamp: 1 } }),
    assistant([{ type: 'toolCall', id: `call-${c}-3`, name: 'bash', arguments: { command: `echo ${c}` } }], 'gpt-5-mini', 'toolUse'),
    entry('message', { message: { role: 'toolResult', toolCallId: `call-${c}-3`, toolName: 'bash', content: [{ type: 'text', text: c }], isError: false } }),
    entry('session_info', { name: `name ${c}` }),
    entry('label', { targetId: `${c}-4`, label: `label ${c}` }),
  ]);
}

/** Gemini CLI's messages: 3 model messages, 3 calls (a success, an error, a cancelled one), an error message. */
function geminiMessages(c: string): Array<Record<string, unknown>> {
  const call = (id: string, name: string, status: string, extra: object = {}) => ({
    id,
    name,
    args: { path: `/home/${c}/f` },
    status,
    result: [{ functionResponse: { id, name, response: { output: `output ${c}` } } }],
    resultDisplay: `display ${c}`,
    displayName: `Display ${c}`,
    description: `description ${c}`,
    renderOutputAsMarkdown: true,
    timestamp: at(5),
    ...extra,
  });
  const tokens = { input: 10, output: 20, cached: 0, thoughts: 5, tool: 0, total: 35 };
  return [
    { id: `${c}-m1`, timestamp: at(1), type: 'info', content: `info ${c}` },
    { id: `${c}-m2`, timestamp: at(2), type: 'user', content: [{ text: `prompt ${c}` }], displayContent: `shown ${c}` },
    {
      id: `${c}-m3`,
      timestamp: at(3),
      type: 'gemini',
      content: `answer ${c}`,
      thoughts: [{ subject: `subject ${c}`, description: `thought ${c}`, timestamp: at(3) }],
      tokens,
      model: 'gemini-3-flash-preview',
      toolCalls: [call(`read_file-${c}-1`, 'read_file', 'success'), call(`tool-${c}-2`, `mcp_${c}_tool`, 'error', { args: {} })],
    },
    {
      id: `${c}-m4`,
      timestamp: at(6),
      type: 'gemini',
      content: '',
      thoughts: [],
      tokens,
      model: 'gemini-3-flash-preview',
      toolCalls: [call(`run_shell_command-${c}-3`, 'run_shell_command', 'cancelled', { result: undefined })],
    },
    { id: `${c}-m5`, timestamp: at(7), type: 'error', content: `quota ${c}` },
    { id: `${c}-m6`, timestamp: at(8), type: 'user', content: `again ${c}` },
    { id: `${c}-m7`, timestamp: at(9), type: 'gemini', content: `done ${c}`, thoughts: [], tokens, model: 'gemini-3.1-pro-preview' },
    { id: `${c}-m8`, timestamp: at(10), type: 'warning', content: `warning ${c}` },
  ];
}

const geminiHeader = (c: string) => ({
  sessionId: `session-${c}`,
  projectHash: `hash-${c}`,
  startTime: at(0),
  lastUpdated: at(10),
  kind: 'main',
});

/** Gemini CLI up to v0.38: the whole chat, pretty-printed (JSON.stringify(…, null, 2), as the CLI writes it). */
export function geminiJson(c: string): string {
  return JSON.stringify({ ...geminiHeader(c), summary: `summary ${c}`, directories: [`/home/${c}`], messages: geminiMessages(c) }, null, 2);
}

/**
 * Gemini CLI v0.39+: the same session appended. m3 is written three times as it grows (no
 * calls, calls still running, calls done); `$set` rows and a `$rewindTo` row in between.
 */
export function geminiJsonl(c: string): string {
  const [m1, m2, m3, m4, m5, m6, m7, m8] = geminiMessages(c) as Array<Record<string, unknown>>;
  const calls = m3!.toolCalls as Array<Record<string, unknown>>;
  return jsonl([
    geminiHeader(c),
    { $set: { messages: [m1] } },
    m2,
    { $set: { lastUpdated: at(2) } },
    { ...m3, toolCalls: undefined },
    { ...m3, toolCalls: calls.map((x) => ({ ...x, status: 'executing', result: undefined })) },
    m3,
    m4,
    m5,
    { $set: { summary: `summary ${c}`, memoryScratchpad: `scratch ${c}`, lastUpdated: at(7) } },
    m6,
    m7,
    m8,
    { $rewindTo: `${c}-m8` },
  ]);
}

/** Gemini CLI's prompt log (`logs.json`): prompts only, no model turn; not a transcript. */
export function geminiLogs(c: string): string {
  return JSON.stringify([{ sessionId: `session-${c}`, messageId: 0, type: 'user', message: `prompt ${c}`, timestamp: at(1) }], null, 2);
}

/** What `/chat save` and `/chat share <file>.json` write: the history as `[{role, parts}]`, no ids, times or model. */
export function geminiHistory(c: string): string {
  return JSON.stringify(
    [
      { role: 'user', parts: [{ text: `prompt ${c}` }] },
      { role: 'model', parts: [{ text: `answer ${c}` }, { functionCall: { name: 'read_file', args: { path: c } } }] },
    ],
    null,
    2,
  );
}

/** What `/chat share <file>.md` writes: text only. */
export function geminiMarkdown(c: string): string {
  return `## USER 🧑‍💻\n\nprompt ${c}\n\n---\n\n## MODEL ✨\n\nanswer ${c}\n`;
}

/** Writes the three agents' folders under `home` (see the file comment). */
export function writeAgentHomes(home: string, c: string): AgentHome {
  const copilotFolder = join(home, '.copilot', 'session-state');
  const session = join(copilotFolder, '0b7f4c1e-1111-4222-8333-944455556666');
  mkdirSync(session, { recursive: true });
  const copilotFile = join(session, 'events.jsonl');
  writeFileSync(copilotFile, copilotEvents(c));
  writeFileSync(join(session, 'workspace.yaml'), `cwd: /home/${c}\n`);
  writeFileSync(join(session, 'session.db'), `not read ${c}`);

  const piFolder = join(home, '.pi', 'agent', 'sessions');
  const piProject = join(piFolder, '--home-user-work--');
  mkdirSync(piProject, { recursive: true });
  const piFile = join(piProject, '2026-06-01T10-00-00-000Z_0b7f4c1e-1111-4222-8333-944455556666.jsonl');
  writeFileSync(piFile, piSession(c));

  const geminiFolder = join(home, '.gemini', 'tmp');
  const project = join(geminiFolder, 'work');
  const chats = join(project, 'chats');
  mkdirSync(chats, { recursive: true });
  const geminiJsonPath = join(chats, 'session-2026-06-01T10-00-0b7f4c1e.json');
  const geminiJsonlPath = join(chats, 'session-2026-06-01T11-00-1a2b3c4d.jsonl');
  writeFileSync(geminiJsonPath, geminiJson(c));
  writeFileSync(geminiJsonlPath, geminiJsonl(c));
  const geminiLogsPath = join(project, 'logs.json');
  writeFileSync(geminiLogsPath, geminiLogs(c));
  const geminiCheckpoint = join(project, 'checkpoint-mytag.json');
  writeFileSync(geminiCheckpoint, geminiHistory(c));
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ general: { sessionRetention: { enabled: true, maxAge: '30d' } } }, null, 2));
  return {
    home,
    copilotFolder,
    copilotFile,
    piFolder,
    piFile,
    geminiFolder,
    geminiJson: geminiJsonPath,
    geminiJsonl: geminiJsonlPath,
    geminiLogs: geminiLogsPath,
    geminiCheckpoint,
  };
}
