import type { SessionEnd } from '../../shared/session-ends';
import type { AssistantMessage, TranscriptFile } from '../scan/transcript-model';

/** Stop reasons that mean the answer was cut off rather than finished. */
const CUT_OFF = new Set(['max_tokens', 'model_context_window_exceeded']);

export interface SessionEndVerdict {
  end: SessionEnd;
  /** The last model message of the main thread (null when the session ends in an API error without one). */
  message: AssistantMessage | null;
}

const lastLine = (m: AssistantMessage) => m.lines[m.lines.length - 1]!;

/**
 * How the session's last assistant turn ended. Pure: a function of the transcript model only.
 * The main thread is judged (a subagent's messages inside a main file are left out; a
 * subagent's own file is judged as a whole). Whatever comes last decides: an API error row
 * written by the harness, an interrupt, an unanswered retry nudge, or the last model message
 * itself, classed by its stop reason and blocks. Null when the file holds no assistant message.
 */
export function classifySessionEnd(file: TranscriptFile): SessionEndVerdict | null {
  const thread = file.sidechain ? file.messages : file.messages.filter((m) => !m.sidechain);
  let model: AssistantMessage | null = null;
  let harness: AssistantMessage | null = null;
  for (const m of thread) {
    if (m.synthetic) harness = m;
    else model = m;
  }
  if (model === null && harness === null) return null;
  const end = model ? lastLine(model) : 0;

  // Events after the last model message, the latest of which decides.
  let latest: { line: number; end: SessionEnd } | null = null;
  const consider = (line: number, verdict: SessionEnd) => {
    if (line > end && (latest === null || line > latest.line)) latest = { line, end: verdict };
  };
  if (harness) consider(harness.lines[0]!, harness.retryExhausted ? 'lost_call' : 'api_error');
  for (const line of file.interrupts) consider(line, 'interrupted');
  for (const nudge of file.nudges) if (nudge.sidechain === file.sidechain) consider(nudge.line, 'lost_call');
  if (latest !== null) return { end: (latest as { end: SessionEnd }).end, message: model };
  if (model === null) return null;
  return { end: classifyMessage(model), message: model };
}

/** The class of one model message by its stop reason and blocks (see SESSION_END_TEXT). */
export function classifyMessage(m: AssistantMessage): SessionEnd {
  // The partial text kept when the user interrupted mid-stream (2.1.220+) is not a reply.
  if (m.abortedMidStream) return 'interrupted';
  const calls = m.toolUses.length > 0 || m.blockTypes.includes('server_tool_use');
  const stop = m.stopReason;
  if (stop !== null && CUT_OFF.has(stop)) return 'max_tokens';
  if (stop === 'tool_use') return calls ? 'tool_call' : 'lost_call';
  if (calls) return 'tool_call';
  if (m.leak !== null) return 'lost_call';
  if (stop === null) return 'unknown';
  return m.blockTypes.includes('text') ? 'text_answer' : 'said_nothing';
}
