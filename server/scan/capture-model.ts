/**
 * What the scanner keeps of one stream capture (`--output-format stream-json` NDJSON or a raw
 * SSE log of the Messages API): per message, its content blocks as they streamed. Tool input
 * deltas are concatenated and parsed once at block stop, never repaired; the parse itself is
 * not kept here (a detector that compares inputs keeps it through an observer, observers.ts).
 */

export interface CaptureBlock {
  index: number;
  type: string;
  /** tool_use id; kept in memory only. */
  toolUseId: string | null;
  startLine: number;
  stopLine: number | null;
  /** Number of input_json_delta events received. */
  inputDeltas: number;
  /** The concatenated partial_json did not parse (only set when there were deltas). */
  unparseable: boolean;
}

export interface CaptureMessage {
  index: number;
  /** message.id; in memory only. */
  messageId: string;
  startLine: number;
  model: string | null;
  blocks: CaptureBlock[];
  stopReason: string | null;
  /** Line of the message_delta that carried the stop reason. */
  stopLine: number | null;
}

export interface CaptureFile {
  format: 'stream-json' | 'sse';
  version: string | null;
  messages: CaptureMessage[];
  /** stream-json only: the `result` row's terminal_reason (pattern-checked; null when absent or odd) and its line. */
  terminalReason: string | null;
  resultLine: number | null;
  /** session_id of the first row that has one; in memory only (the index stores a hash). */
  sessionId: string | null;
  /** stream-json: whole `assistant` rows; when no message streamed as events, the file is read as a transcript (issue 37). */
  wholeAssistantRows: number;
}
