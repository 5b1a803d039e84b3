import { safeEffort, safeModelId, safeVersion, utcDay } from '../../../shared/metadata-patterns';
import type { RowVerdict } from '../build-transcript';
import type { ErrorKind } from '../harness-markers';
import type { AssistantMessage } from '../transcript-model';
import type { AdapterOutcome, Recognition, RowsAdapter, RowsEnd, RowsReader } from './adapter';
import { builtInName, EventModel, isEmptyObject, isObject, type Json, safeCount } from './event-model';

/**
 * GitHub Copilot CLI's `~/.copilot/session-state/<uuid>/events.jsonl` (corpus/agents/SOURCES.md):
 * one event a line, `{type: "<dotted.name>", data: {...}, id, timestamp, parentId}`, opened by
 * `session.start` (`data.copilotVersion`, `data.producer: "copilot-agent"`).
 *
 * - a model message is an `assistant.message` event (`messageId`); its calls are the requests it
 *   lists in `toolRequests[]` (`toolCallId`, `name`), what the model emitted;
 * - a result is `tool.execution_complete` with the same `toolCallId` (`success`, `error.code`:
 *   `denied` and `rejected` are someone's refusal, any other failure a tool error);
 * - model: the message's `model` (about 1.0.40 on), else the last `session.model_change.newModel`
 *   or `session.resume.selectedModel`, else the next `session.shutdown.currentModel`; effort: their `reasoningEffort`; version: `copilotVersion`;
 * - sub-agent messages (`parentToolCallId`) are sidechain messages; `abort` is an interrupt;
 *   `user.message` a prompt; `session.compaction_complete` a compaction boundary.
 *
 * Never read beyond structure: content, arguments, results, error messages, reasoning, hook
 * input/output and the session's context (cwd, branch) are payload.
 */

/** Copilot CLI's own tools (any other name is `other`; an MCP server's tool is `mcp`). */
const BUILT_IN_TOOLS = new Set([
  'bash',
  'read_bash',
  'write_bash',
  'stop_bash',
  'list_bash',
  'powershell',
  'read_powershell',
  'write_powershell',
  'stop_powershell',
  'list_powershell',
  'view',
  'create',
  'edit',
  'str_replace_editor',
  'glob',
  'grep',
  'rg',
  'web_fetch',
  'web_search',
  'report_intent',
  'update_todo',
  'think',
  'task',
  'read_agent',
  'list_agents',
  'write_agent',
  'ask_user',
  'store_memory',
  'task_complete',
  'fetch_copilot_cli_documentation',
  'session_store_sql',
  'sql',
  'skill',
]);

/** Event types Copilot CLI writes (seen in the corpus or its documentation); others are counted by name. */
const KNOWN_EVENTS = new Set([
  'session.start',
  'session.resume',
  'session.model_change',
  'session.info',
  'session.warning',
  'session.error',
  'session.shutdown',
  'session.task_complete',
  'session.usage_checkpoint',
  'session.mode_changed',
  'session.permissions_changed',
  'session.compaction_start',
  'session.compaction_complete',
  'session.workspace_file_changed',
  'session.truncation',
  'session.handoff',
  'hook.start',
  'hook.end',
  'system.message',
  'system.notification',
  'user.message',
  'assistant.turn_start',
  'assistant.turn_end',
  'assistant.message',
  'assistant.reasoning',
  'assistant.usage',
  'tool.execution_start',
  'tool.execution_partial_result',
  'tool.execution_progress',
  'tool.execution_complete',
  'tool.user_requested',
  'permission.requested',
  'permission.completed',
  'subagent.started',
  'subagent.completed',
  'subagent.failed',
  'subagent.selected',
  'skill.invoked',
  'abort',
]);

/** The names of the counts this adapter keeps beside the model. */
export const COPILOT_EVENT_COUNTS = [
  'tool_errors',
  'denied',
  'rejected',
  'permission_denied',
  'hook_errors',
  'aborted',
  'compaction',
  'unrequested_executions',
] as const;

/** `error.code` of a failed execution: a refusal (someone's decision, not a lost call), else a tool error. */
function errorKindOf(error: unknown): { kind: ErrorKind; count: (typeof COPILOT_EVENT_COUNTS)[number] } {
  const code = isObject(error) ? error.code : undefined;
  if (code === 'denied') return { kind: 'permission_denied', count: 'denied' };
  if (code === 'rejected') return { kind: 'user_rejected', count: 'rejected' };
  return { kind: 'other', count: 'tool_errors' };
}

function recognise(row: unknown): Recognition {
  if (!isObject(row) || row.type !== 'session.start' || !isObject(row.data)) return 'not_mine';
  const { data } = row;
  return data.producer === 'copilot-agent' || typeof data.copilotVersion === 'string' ? 'mine' : 'not_mine';
}

export class CopilotReader implements RowsReader {
  private readonly model = new EventModel('copilot-cli');
  /** The counts kept beside the model (COPILOT_EVENT_COUNTS). */
  readonly events = this.model.events;
  private version: string | null = null;
  private currentModel: string | null = null;
  private effort: string | null = null;
  /** Messages with no model recorded yet (a later `session.shutdown` may name it). */
  private readonly withoutModel: AssistantMessage[] = [];
  /** Calls by toolCallId (memory only), to name MCP executions and to find unrequested ones. */
  private readonly calls = new Map<string, { message: AssistantMessage; index: number }>();

  addRow(row: unknown, line: number): RowVerdict {
    if (!isObject(row) || typeof row.type !== 'string' || !isObject(row.data)) return 'invalid_structure';
    const { type, data } = row;
    this.model.seen(row.timestamp);
    switch (type) {
      case 'session.start':
        this.version ??= safeVersion(data.copilotVersion);
        if (this.model.sessionId === null && typeof data.sessionId === 'string') this.model.sessionId = data.sessionId;
        return 'ok';
      case 'session.resume':
        this.currentModel = safeModelId(data.selectedModel) ?? this.currentModel;
        this.withoutModel.length = 0;
        this.effort = safeEffort(data.reasoningEffort) ?? this.effort;
        return 'ok';
      case 'session.model_change':
        this.currentModel = safeModelId(data.newModel) ?? this.currentModel;
        this.withoutModel.length = 0;
        this.effort = safeEffort(data.reasoningEffort) ?? this.effort;
        return 'ok';
      case 'assistant.message':
        return this.message(data, row.timestamp, line);
      case 'tool.execution_start':
        return this.start(data);
      case 'tool.execution_complete':
        return this.complete(data, line);
      case 'user.message':
        this.model.prompts.push(line);
        if (typeof data.parentAgentTaskId === 'string') this.model.sidechainUserLines.push(line);
        return 'ok';
      case 'abort':
        this.model.interrupts.push(line);
        this.model.count('aborted');
        return 'ok';
      case 'session.compaction_complete':
        this.model.compactBoundaries.push(line);
        this.model.count('compaction');
        return 'ok';
      case 'session.shutdown': {
        // Older files (before about 1.0.40) record the model only here: it names the messages since the last model event.
        const model = safeModelId(data.currentModel);
        if (model !== null) for (const m of this.withoutModel) m.model = model;
        this.withoutModel.length = 0;
        return 'ok';
      }
      case 'hook.end':
        if (data.success === false) this.model.count('hook_errors');
        return 'ok';
      case 'permission.completed': {
        const kind = isObject(data.result) ? data.result.kind : undefined;
        if (typeof kind === 'string' && kind.startsWith('denied')) this.model.count('permission_denied');
        return 'ok';
      }
      default:
        if (!KNOWN_EVENTS.has(type)) this.model.unknownRow(this.version, type);
        return 'ok';
    }
  }

  private message(data: Json, timestamp: unknown, line: number): RowVerdict {
    const { messageId, toolRequests } = data;
    if (typeof messageId !== 'string' || messageId.length === 0) return 'invalid_structure';
    if (toolRequests !== undefined && !Array.isArray(toolRequests)) return 'invalid_structure';
    const message = this.model.addMessage({
      messageId,
      line,
      model: safeModelId(data.model) ?? this.currentModel,
      day: utcDay(timestamp),
      version: this.version,
      sidechain: typeof data.parentToolCallId === 'string',
      effort: this.effort,
      stopReason: null,
      outputTokens: safeCount(data.outputTokens),
    });
    if (message.model === null) this.withoutModel.push(message);
    const hasText = typeof data.content === 'string' ? data.content.length > 0 : Array.isArray(data.content) && data.content.length > 0;
    const hasReasoning = ['reasoningText', 'reasoningOpaque', 'encryptedContent'].some((k) => typeof data[k] === 'string' && (data[k] as string).length > 0);
    if (hasReasoning) this.model.block(message, 'thinking');
    if (hasText) this.model.block(message, 'text');
    for (const request of toolRequests ?? []) {
      if (!isObject(request) || typeof request.toolCallId !== 'string' || typeof request.name !== 'string') return 'invalid_structure';
      this.calls.set(request.toolCallId, { message, index: message.toolUses.length });
      this.model.call(message, {
        id: request.toolCallId,
        emptyInput: isEmptyObject(request.arguments),
        line,
        name: builtInName(request.name, BUILT_IN_TOOLS, false),
        unparsed: null,
      });
    }
    return 'ok';
  }

  private start(data: Json): RowVerdict {
    if (typeof data.toolCallId !== 'string') return 'invalid_structure';
    const call = this.calls.get(data.toolCallId);
    // A call the model did not request (none in the corpus): counted apart, never a call of the model.
    if (call === undefined) this.model.count('unrequested_executions');
    else if (typeof data.mcpServerName === 'string') call.message.toolUses[call.index]!.name = 'mcp';
    return 'ok';
  }

  private complete(data: Json, line: number): RowVerdict {
    if (typeof data.toolCallId !== 'string' || typeof data.success !== 'boolean') return 'invalid_structure';
    if (data.success) {
      this.model.result(data.toolCallId, line, null);
      return 'ok';
    }
    const { kind, count } = errorKindOf(data.error);
    this.model.count(count);
    this.model.result(data.toolCallId, line, kind);
    return 'ok';
  }

  finish(end: RowsEnd): AdapterOutcome {
    const transcript = this.model.build(end.lineCount, end.endsWithNewline, end.salvaged);
    return { status: 'ok', transcript, agent: 'copilot-cli', version: this.version };
  }
}

export const copilotCliAdapter: RowsAdapter = {
  agent: 'copilot-cli',
  encoding: 'rows',
  recognise,
  start: () => new CopilotReader(),
};
