/**
 * How a turn ended: every point where control went back to the user (the last model message
 * before a typed prompt, an interrupt, or the end of the file) is classed once. The session-end
 * classes (shared/session-ends.ts) with `max_tokens` split by what was being written when the
 * reply was cut. Shared by the classifier (server/detect/turn-ends.ts), the index, the API and the page.
 */
export const TURN_ENDS = [
  'tool_call',
  'text_answer',
  'said_nothing',
  'cut_while_thinking',
  'cut_in_text',
  'cut_in_call',
  'interrupted',
  'api_error',
  'lost_call',
  'unknown',
] as const;

export type TurnEnd = (typeof TURN_ENDS)[number];

export const TURN_END_TEXT: Record<TurnEnd, string> = {
  tool_call: 'tool call: the turn ended on a call (still open at the end of the file, or the user typed before its result)',
  text_answer: 'text answer: the last message ended the turn with text',
  said_nothing: 'said nothing: the last message ended the turn with neither text nor a call (thinking only, or empty)',
  cut_while_thinking: 'cut while thinking: the last message was cut at max_tokens (or the context window) holding only thinking',
  cut_in_text: 'cut in text: the last message was cut at max_tokens (or the context window) while writing text',
  cut_in_call: 'cut in a call: the last message was cut at max_tokens (or the context window) while writing a tool call',
  interrupted: 'interrupted: the user interrupted or rejected (the partial text kept on an interrupt included)',
  api_error: 'API error: the turn ended with an error row written by Claude Code (a limit, login, server, timeout or connection error), not a model answer',
  lost_call: 'lost call: the last message meant to call a tool but no call was saved (or it leaked as text, or the retry failed)',
  unknown: 'unknown: no stop reason recorded (2.1.12–2.1.52 record none) and no tool call',
};

/** What an `api_error` turn end's error row says went wrong (server/scan/harness-markers.ts, apiErrorKindOf). */
export const TURN_END_API_ERROR_KINDS = [
  'rate_limit',
  'authentication',
  'server_error',
  'timeout',
  'connection',
  'bad_request',
  'retry_exhausted',
  'no_response_requested',
  'other',
] as const;
export type TurnEndApiErrorKind = (typeof TURN_END_API_ERROR_KINDS)[number];

export function isTurnEnd(value: string): value is TurnEnd {
  return (TURN_ENDS as readonly string[]).includes(value);
}
