import { safeEffort, safeModelId, safeTimestamp, safeVersion, utcDay } from '../../../shared/metadata-patterns';
import { type AssistantMessage, emptyTranscript, type TranscriptFile } from '../transcript-model';
import type { RowsAdapter, RowsReader } from './adapter';
import { addBlockType, isObject, modelMessage } from './shared-facts';

/** Codex CLI rollout row types (../shared/corpus/agents/SOURCES.md). */
const ROW_TYPES = new Set(['session_meta', 'response_item', 'turn_context', 'event_msg', 'compacted']);
/** response_item payload types that are calls the model emitted and that get an output row. */
const CALL_ITEMS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call']);
/** response_item payload types that are a call's output. */
const OUTPUT_ITEMS = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output', 'local_shell_call_output']);
/** Model output that is not a call: its reply text, its reasoning, and server-side web searches (no output row; counted apart). */
const MODEL_ITEMS = new Set(['message', 'reasoning', 'web_search_call']);

/**
 * Codex CLI's rollout (`~/.codex/sessions/…/rollout-*.jsonl`): rows `{timestamp, type, payload}`.
 *
 * The model: one message is one model step, the run of model output items (reasoning, reply
 * `message`s, calls, web searches) between two inputs (a user or developer message, a call's
 * output), so its calls are the step's calls; `modelMessages` counts the reply `message` items
 * (the format's own model messages). Calls (`function_call`, `custom_tool_call`,
 * `local_shell_call`, `tool_search_call`) pair with their output by `call_id` over the whole
 * file. Version: the latest `session_meta.payload.cli_version` before the step; model and effort:
 * the latest `turn_context`. `event_msg` `turn_aborted` and `thread_rolled_back` are interrupts,
 * a `compacted` row and `event_msg` `context_compacted` compaction boundaries, a user message a
 * prompt: the orphan rule (server/detect/README.md) leaves calls they cut off out. Nothing else
 * of a row is kept: no text, arguments, inputs, outputs, instructions, cwd or git facts.
 */
export const codexAdapter: RowsAdapter = {
  agent: 'codex',
  encoding: 'rows',
  recognise: (row) => (isObject(row) && typeof row.type === 'string' && ROW_TYPES.has(row.type) && isObject(row.payload) ? 'mine' : 'not_mine'),
  start(): RowsReader {
    const file: TranscriptFile = { ...emptyTranscript(), agent: 'codex', modelMessages: 0 };
    let step: AssistantMessage | null = null;
    let fileVersion: string | null = null;
    let version: string | null = null;
    let model: string | null = null;
    let effort: string | null = null;
    const modelItem = (line: number, at: unknown): AssistantMessage => {
      if (step === null) {
        step = modelMessage(file.messages.length, `codex:${file.sessionId ?? ''}:${line}`, { model, day: utcDay(at), version, effort });
        file.messages.push(step);
      }
      step.lines.push(line);
      return step;
    };
    return {
      addRow(row, line) {
        if (!isObject(row) || typeof row.type !== 'string' || !isObject(row.payload)) return 'invalid_structure';
        const { type, payload, timestamp } = row;
        const at = safeTimestamp(timestamp);
        if (at !== null) {
          file.firstTimestamp ??= at;
          file.lastTimestamp = at;
        }
        const kind = payload.type;
        if (type === 'session_meta') {
          const v = safeVersion(payload.cli_version);
          if (v !== null) version = v;
          fileVersion ??= v;
          if (file.sessionId === null && typeof payload.id === 'string') file.sessionId = payload.id;
        } else if (type === 'turn_context') {
          model = safeModelId(payload.model) ?? model;
          effort = safeEffort(payload.effort);
        } else if (type === 'compacted') {
          file.compactBoundaries.push(line);
          step = null;
        } else if (type === 'event_msg') {
          if (kind === 'turn_aborted' || kind === 'thread_rolled_back') file.interrupts.push(line);
          else if (kind === 'context_compacted') file.compactBoundaries.push(line);
        } else if (type === 'response_item') {
          if (typeof kind !== 'string') return 'invalid_structure';
          if (CALL_ITEMS.has(kind)) {
            if (typeof payload.call_id !== 'string' || payload.call_id === '') return 'invalid_structure';
            const m = modelItem(line, timestamp);
            addBlockType(m, 'tool_use');
            m.toolUses.push({
              id: payload.call_id,
              emptyInput: typeof payload.arguments === 'string' && /^\s*\{\s*\}\s*$/.test(payload.arguments),
              line,
              name: typeof payload.name === 'string' ? payload.name : kind,
              unparsed: null,
            });
          } else if (OUTPUT_ITEMS.has(kind)) {
            if (typeof payload.call_id !== 'string') return 'invalid_structure';
            file.toolResults.push({ toolUseId: payload.call_id, isError: false, line, errorKind: null, missingParameter: null, validation: false });
            step = null;
          } else if (kind === 'message') {
            if (typeof payload.role !== 'string') return 'invalid_structure';
            if (payload.role === 'assistant') {
              addBlockType(modelItem(line, timestamp), 'text');
              file.modelMessages!++;
            } else {
              if (payload.role === 'user') file.prompts.push(line);
              step = null;
            }
          } else if (MODEL_ITEMS.has(kind)) {
            addBlockType(modelItem(line, timestamp), kind === 'reasoning' ? 'thinking' : kind);
          }
        }
        return 'ok';
      },
      finish({ lineCount, endsWithNewline, salvaged }) {
        return { status: 'ok', transcript: { ...file, lineCount, endsWithNewline, salvaged }, agent: 'codex', version: fileVersion };
      },
    };
  },
};
