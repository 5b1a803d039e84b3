import type { FormatHint } from '../../shared/format-hints';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Codex CLI rollout row types (corpus/agents/SOURCES.md): `{timestamp, type, payload}`. */
const CODEX_TYPES = new Set(['session_meta', 'response_item', 'turn_context', 'event_msg', 'compacted']);

/**
 * What a file's first non-blank row says about its format, from key names and fixed type names
 * only (never the path, never a value the file wrote). `foreign` with a hint: the shape of a
 * format no reader here reads (the file fails `unknown_format` at that row); `entire_compact`:
 * Entire's compact transcript (its own code); `read`: nothing foreign, the reader decides (a file
 * in which no row is recognised still fails `unknown_format`, without a hint).
 */
export type FirstRowVerdict = { kind: 'read' } | { kind: 'foreign'; hint: FormatHint } | { kind: 'entire_compact' };

export function sniffFirstRow(row: unknown): FirstRowVerdict {
  if (!isObject(row)) return { kind: 'foreign', hint: 'not_an_object' };
  const has = (key: string) => Object.hasOwn(row, key);
  const { type } = row;
  if (!has('message') && row.v === 1 && typeof row.agent === 'string' && has('cli_version') && (type === 'user' || type === 'assistant'))
    return { kind: 'entire_compact' };
  if (typeof type === 'string') {
    if (CODEX_TYPES.has(type) && isObject(row.payload)) return { kind: 'foreign', hint: 'codex_rollout' };
    if (type === 'session.start' || type.startsWith('hook.')) return { kind: 'foreign', hint: 'copilot_cli_events' };
    if (/^[a-z_]+(\.[a-z_]+)+$/i.test(type) && has('data')) return { kind: 'foreign', hint: 'event_log' };
    // Pi's header; version 1 files wrote none (pi-mono docs/session.md).
    if (type === 'session' && (typeof row.version === 'number' || (row.version === undefined && typeof row.id === 'string' && has('cwd'))))
      return { kind: 'foreign', hint: 'pi_session' };
    if (type === 'session_start' && !has('uuid')) return { kind: 'foreign', hint: 'droid_session' };
    if (type === 'message' && isObject(row.message)) return { kind: 'foreign', hint: 'message_rows' };
    return { kind: 'read' };
  }
  if (type !== undefined) return { kind: 'read' };
  if (has('resourceSpans') || has('resourceLogs') || has('resourceMetrics')) return { kind: 'foreign', hint: 'opentelemetry_export' };
  if (has('sessionId') && has('projectHash')) return { kind: 'foreign', hint: 'gemini_cli_chat' };
  if (has('conversation_id') && has('history')) return { kind: 'foreign', hint: 'kiro_conversation' };
  if (typeof row.role === 'string' && has('message')) return { kind: 'foreign', hint: 'cursor_transcript' };
  if (typeof row.role === 'string' && has('content')) return { kind: 'foreign', hint: 'chat_messages' };
  if (typeof row.event === 'string' && has('session_id')) return { kind: 'foreign', hint: 'hook_event_log' };
  if (has('display') && has('pastedContents')) return { kind: 'foreign', hint: 'claude_prompt_history' };
  for (const _ in row) return { kind: 'read' };
  return { kind: 'foreign', hint: 'empty_object' };
}
