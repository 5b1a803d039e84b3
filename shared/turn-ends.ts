import { type Static, Type } from 'typebox';

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

export const TurnEndDimension = Type.Union([Type.Literal('version'), Type.Literal('model'), Type.Literal('day'), Type.Literal('effort')]);
export type TurnEndDimension = Static<typeof TurnEndDimension>;

/** GET /api/turn-ends: per version (or model, day, effort), how many turns ended each way. */
export const TurnEndsQuery = Type.Object({
  dimension: Type.Optional(TurnEndDimension),
  /** Folder ids (comma-separated). */
  folder: Type.Optional(Type.String({ pattern: '^[0-9,]{1,100}$' })),
  /** main (default): sessions; sidechain: subagent transcripts; all: both. */
  sidechain: Type.Optional(Type.Union([Type.Literal('main'), Type.Literal('sidechain'), Type.Literal('all')])),
  /** last: only each session's last turn (the session end); all (default): every turn. */
  turns: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('last')])),
  /** Agents (comma-separated; shared/agents.ts). */
  agent: Type.Optional(Type.String({ pattern: '^[a-z,-]{1,200}$' })),
  /** Efforts (comma-separated; `unknown` for none recorded). */
  effort: Type.Optional(Type.String({ pattern: '^[a-z,]{1,200}$' })),
});
export type TurnEndsQuery = Static<typeof TurnEndsQuery>;

const counts = <K extends string>(keys: readonly K[]) =>
  Type.Object(Object.fromEntries(keys.map((e) => [e, Type.Integer()])) as Record<K, ReturnType<typeof Type.Integer>>);

export const TurnEndCounts = counts(TURN_ENDS);
export const TurnEndApiErrorCounts = counts(TURN_END_API_ERROR_KINDS);

/** A row names its dimension (`version`, `model`, `day` or `effort` of the turn's last message; null when unknown), as asked. */
export const TurnEndsRow = Type.Object({
  version: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  model: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  day: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  effort: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** Turn ends counted in the row (the sum of `ends`). */
  turn_ends: Type.Integer(),
  ends: TurnEndCounts,
  /** Each class per 1,000 turn ends of the row (one decimal). */
  per_1000_turn_ends: Type.Object(Object.fromEntries(TURN_ENDS.map((e) => [e, Type.Number()])) as Record<TurnEnd, ReturnType<typeof Type.Number>>),
  /** The `api_error` turn ends by what the error row says. */
  api_error_kinds: TurnEndApiErrorCounts,
});
export type TurnEndsRow = Static<typeof TurnEndsRow>;

export const TurnEndsResponse = Type.Object({
  dimension: TurnEndDimension,
  turns: Type.Union([Type.Literal('all'), Type.Literal('last')]),
  rows: Type.Array(TurnEndsRow),
});
export type TurnEndsResponse = Static<typeof TurnEndsResponse>;
