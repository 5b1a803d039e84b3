import { type Static, Type } from 'typebox';

/**
 * How a session's last assistant turn ended: one class per transcript file, shared by the
 * classifier (server/detect/session-end.ts), the index, the API and the page.
 */
export const SESSION_ENDS = ['tool_call', 'text_answer', 'said_nothing', 'max_tokens', 'interrupted', 'api_error', 'lost_call', 'unknown'] as const;

export type SessionEnd = (typeof SESSION_ENDS)[number];

export const SESSION_END_TEXT: Record<SessionEnd, string> = {
  tool_call: 'tool call: the last message called a tool',
  text_answer: 'text answer: the last message ended its turn with text',
  said_nothing: 'said nothing: the last message ended its turn with neither text nor a tool call (thinking only, or empty)',
  max_tokens: 'truncated: the last message was cut at max_tokens (or the context window)',
  interrupted: 'interrupted: the user interrupted or rejected after the last message',
  api_error: 'API error: the session ends with an error row written by Claude Code, not a model answer',
  lost_call: 'lost call: the last message meant to call a tool but no call was saved (or it leaked as text, or the retry failed)',
  unknown: 'unknown: no stop reason recorded (2.1.12–2.1.52 record none) and no tool call',
};

export function isSessionEnd(value: string): value is SessionEnd {
  return (SESSION_ENDS as readonly string[]).includes(value);
}

/** GET /api/session-ends: per version (or model, or day), how many sessions ended each way. */
export const SessionEndsQuery = Type.Object({
  dimension: Type.Optional(Type.Union([Type.Literal('version'), Type.Literal('model'), Type.Literal('day')])),
  /** Folder ids (comma-separated). */
  folder: Type.Optional(Type.String({ pattern: '^[0-9,]{1,100}$' })),
  /** main (default): sessions; sidechain: subagent transcripts; all: both. */
  sidechain: Type.Optional(Type.Union([Type.Literal('main'), Type.Literal('sidechain'), Type.Literal('all')])),
  /** Agents (comma-separated; shared/agents.ts). */
  agent: Type.Optional(Type.String({ pattern: '^[a-z,-]{1,200}$' })),
});
export type SessionEndsQuery = Static<typeof SessionEndsQuery>;

export const SessionEndCounts = Type.Object(
  Object.fromEntries(SESSION_ENDS.map((e) => [e, Type.Integer()])) as Record<SessionEnd, ReturnType<typeof Type.Integer>>,
);

/** A row names its dimension: `version`, `model` or `day` (of the last message judged; null when unknown), as asked. */
export const SessionEndsRow = Type.Object({
  version: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  model: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  day: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  sessions: Type.Integer(),
  ends: SessionEndCounts,
});
export type SessionEndsRow = Static<typeof SessionEndsRow>;

export const SessionEndsResponse = Type.Object({
  dimension: Type.Union([Type.Literal('version'), Type.Literal('model'), Type.Literal('day')]),
  rows: Type.Array(SessionEndsRow),
});
export type SessionEndsResponse = Static<typeof SessionEndsResponse>;
