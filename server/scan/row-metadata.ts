/**
 * THE allowlist for a finding's context (the turn strip and the session time line): one
 * parsed transcript row in, a handful of pattern-checked facts out. Nothing else in the
 * project reads rows around a finding; anything not produced here cannot reach the API.
 *
 * Leaves: row type (known names, else `other`), role, content block types in order (pattern
 * checked, at most 16), stop reason (fixed list, else `other`), is_error, a synthetic kind
 * (fixed list), seconds since the previous timestamped row, output tokens (an integer) and
 * whether the message stopped at max_tokens, sidechain, and per tool call its name only when
 * it is a built-in Claude Code tool (`mcp` or `other` otherwise) and whether its input was {}.
 * Never leaves: text, thinking, inputs, results, MCP tool names, ids, cwd, timestamps.
 */
import { safeBlockType } from '../../shared/metadata-patterns';
import { INTERRUPT_PREFIXES, RETRY_EXHAUSTED, RETRY_NUDGES, USER_REJECTED } from './harness-markers';
import { KNOWN_ROW_TYPES } from './known-row-types';

/** Claude Code's own tools (names as the harness writes them). Anything else is `mcp` or `other`. */
export const BUILTIN_TOOLS = new Set([
  'Agent',
  'Bash',
  'BashOutput',
  'Edit',
  'ExitPlanMode',
  'Glob',
  'Grep',
  'KillBash',
  'KillShell',
  'LS',
  'MultiEdit',
  'NotebookEdit',
  'NotebookRead',
  'Read',
  'Skill',
  'SlashCommand',
  'Task',
  'TaskOutput',
  'TodoRead',
  'TodoWrite',
  'ToolSearch',
  'WebFetch',
  'WebSearch',
  'Write',
  'AskUserQuestion',
  'EnterPlanMode',
  'SendMessage',
]);

const STOP_REASONS = new Set(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal', 'model_context_window_exceeded']);

/** Synthetic kinds a row can have; the strip's glyphs key on these. */
export const SYNTHETIC_KINDS = [
  'api_error',
  'retry_nudge',
  'retry_exhausted',
  'api_retry',
  'interrupt',
  'compact_boundary',
  'microcompact_boundary',
  'compact_summary',
  'hook',
  'progress',
  'meta',
] as const;
export type SyntheticKind = (typeof SYNTHETIC_KINDS)[number];

/** Progress/attachment/system sub-kinds that may be named (fixed list; others become `other`). */
const SUB_KINDS = new Set([
  'hook_progress',
  'bash_progress',
  'agent_progress',
  'mcp_progress',
  'waiting_for_task',
  'query_update',
  'hook_success',
  'hook_blocking_error',
  'hook_additional_context',
  'hook_cancelled',
  'stop_hook_summary',
  'turn_duration',
  'api_error',
  'compact_boundary',
  'microcompact_boundary',
  'local_command',
  'informational',
]);

export interface ToolCallMeta {
  /** A built-in tool's name, else `mcp` (mcp__…) or `other`. */
  tool: string;
  empty_input: boolean;
}

export interface RowMeta {
  line: number;
  type: string;
  role: 'user' | 'assistant' | null;
  blocks: string[];
  stop_reason: string | null;
  is_error: boolean;
  synthetic: SyntheticKind | null;
  /** progress data.type, attachment.type or system subtype, from a fixed list (else `other`). */
  sub_kind: string | null;
  /** Seconds since the previous row with a timestamp; null when either has none. */
  seconds_since_previous: number | null;
  output_tokens: number | null;
  at_max_tokens: boolean;
  sidechain: boolean;
  tool_calls: ToolCallMeta[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const MAX_BLOCKS = 16;
const MAX_CALLS = 16;

export function toolLabel(name: unknown): string {
  if (typeof name !== 'string') return 'other';
  if (BUILTIN_TOOLS.has(name)) return name;
  return name.startsWith('mcp__') ? 'mcp' : 'other';
}

/** Milliseconds of an ISO-8601 timestamp, or null. Only differences of these ever leave. */
export function timestampMs(row: unknown): number | null {
  if (!isObject(row) || typeof row.timestamp !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(row.timestamp)) return null;
  const ms = Date.parse(row.timestamp);
  return Number.isNaN(ms) ? null : ms;
}

function subKindOf(row: Json): string | null {
  let name: unknown = null;
  if (row.type === 'progress' && isObject(row.data)) name = row.data.type;
  else if (row.type === 'attachment' && isObject(row.attachment)) name = row.attachment.type;
  else if (row.type === 'system') name = row.subtype;
  else return null;
  if (name === undefined || name === null) return null;
  return typeof name === 'string' && SUB_KINDS.has(name) ? name : 'other';
}

function syntheticOf(row: Json, message: Json | null, sub: string | null): SyntheticKind | null {
  if (row.type === 'assistant') {
    if (row.isApiErrorMessage === true || message?.model === '<synthetic>') {
      const content = message?.content;
      if (Array.isArray(content) && content.some((b) => isObject(b) && b.type === 'text' && b.text === RETRY_EXHAUSTED)) return 'retry_exhausted';
      return 'api_error';
    }
    return null;
  }
  if (row.type === 'user') {
    if (row.isCompactSummary === true) return 'compact_summary';
    const content = message?.content;
    if (typeof content === 'string') {
      if (row.isMeta === true && (RETRY_NUDGES as readonly string[]).includes(content)) return 'retry_nudge';
      if (INTERRUPT_PREFIXES.some((p) => content.startsWith(p))) return 'interrupt';
      return row.isMeta === true ? 'meta' : null;
    }
    if (row.toolUseResult === USER_REJECTED) return 'interrupt';
    if (Array.isArray(content)) {
      for (const b of content) {
        if (!isObject(b)) continue;
        const text = b.type === 'text' ? b.text : b.type === 'tool_result' && typeof b.content === 'string' ? b.content : null;
        if (typeof text === 'string' && INTERRUPT_PREFIXES.some((p) => text.startsWith(p))) return 'interrupt';
      }
    }
    return row.isMeta === true ? 'meta' : null;
  }
  if (row.type === 'system') {
    if (sub === 'compact_boundary') return 'compact_boundary';
    if (sub === 'microcompact_boundary') return 'microcompact_boundary';
    if (sub === 'api_error') return 'api_retry';
    if (sub === 'stop_hook_summary') return 'hook';
    return null;
  }
  if (row.type === 'progress') return sub === 'hook_progress' ? 'hook' : 'progress';
  if (row.type === 'attachment' && sub?.startsWith('hook_')) return 'hook';
  return null;
}

/** A row with nothing known about it but its line and type (blank, unparseable, or before any field is read). */
export function emptyRowMeta(line: number, type: string): RowMeta {
  return {
    line,
    type,
    role: null,
    blocks: [],
    stop_reason: null,
    is_error: false,
    synthetic: null,
    sub_kind: null,
    seconds_since_previous: null,
    output_tokens: null,
    at_max_tokens: false,
    sidechain: false,
    tool_calls: [],
  };
}

/**
 * The metadata of one row. `previousMs` is the timestamp of the previous timestamped row
 * (see timestampMs); the row's own timestamp never leaves, only the difference in seconds.
 */
export function rowMetadata(row: unknown, line: number, previousMs: number | null): RowMeta {
  const meta = emptyRowMeta(line, 'other');
  if (!isObject(row)) return meta;
  if (typeof row.type === 'string' && KNOWN_ROW_TYPES.has(row.type)) meta.type = row.type;
  meta.sidechain = row.isSidechain === true;
  const ms = timestampMs(row);
  if (ms !== null && previousMs !== null) meta.seconds_since_previous = Math.round((ms - previousMs) / 100) / 10;
  const message = isObject(row.message) ? row.message : null;
  if (message && (message.role === 'user' || message.role === 'assistant')) meta.role = message.role;
  if (message) {
    const content = message.content;
    if (typeof content === 'string') meta.blocks.push('string');
    else if (Array.isArray(content)) {
      for (const b of content) {
        if (!isObject(b) || typeof b.type !== 'string') continue;
        if (meta.blocks.length < MAX_BLOCKS) meta.blocks.push(safeBlockType(b.type));
        if (b.type === 'tool_result' && b.is_error === true) meta.is_error = true;
        if (b.type === 'tool_use' && meta.tool_calls.length < MAX_CALLS) {
          const input = b.input;
          meta.tool_calls.push({ tool: toolLabel(b.name), empty_input: isObject(input) && Object.keys(input).length === 0 });
        }
      }
    }
    if (row.type === 'assistant') {
      const stop = message.stop_reason;
      if (typeof stop === 'string') {
        meta.stop_reason = STOP_REASONS.has(stop) ? stop : 'other';
        meta.at_max_tokens = stop === 'max_tokens';
      }
      const usage = message.usage;
      if (isObject(usage) && Number.isSafeInteger(usage.output_tokens) && (usage.output_tokens as number) >= 0)
        meta.output_tokens = usage.output_tokens as number;
    }
  }
  if (row.isApiErrorMessage === true) meta.is_error = true;
  meta.sub_kind = subKindOf(row);
  meta.synthetic = syntheticOf(row, message, meta.sub_kind);
  return meta;
}
