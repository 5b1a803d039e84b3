/**
 * What an unrecognised file looks like (`unknown_format`'s hint): a fixed vocabulary decided from
 * the first non-blank row's shape (key names and fixed type names), never from the path and never
 * quoting the file. Absent when nothing cheap fits.
 */
import { OPENCODE_SCHEMA_HINTS } from './opencode-schema';

export const FORMAT_HINTS = {
  codex_rollout: 'Codex rollout',
  copilot_cli_events: 'Copilot CLI event log',
  event_log: 'event log (dotted event names)',
  opentelemetry_export: 'OpenTelemetry export',
  gemini_cli_chat: 'Gemini CLI chat',
  pi_session: 'pi session',
  droid_session: 'Factory Droid session',
  message_rows: 'another agent\'s message rows ({type:"message", message})',
  cursor_transcript: 'Cursor agent transcript ({role, message} rows)',
  chat_messages: 'chat messages ({role, content} rows)',
  kiro_conversation: 'Kiro conversation',
  hook_event_log: 'hook event log ({event, session_id} rows)',
  claude_prompt_history: "Claude Code's prompt history ({display, pastedContents} rows)",
  empty_object: 'an empty JSON object',
  not_an_object: 'JSON values that are not objects',
  /** `database_schema_unknown` (issue 38): the table or column of OpenCode's database that differs. */
  ...OPENCODE_SCHEMA_HINTS,
} as const;

export type FormatHint = keyof typeof FORMAT_HINTS;

/** The formats files are read in (server/scan/README.md, "Fail closed"): what `formats_read` counts by. */
export const READ_FORMATS = ['transcript', 'stream-json', 'sse'] as const;
