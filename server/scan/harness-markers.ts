/**
 * Exact strings the Claude Code harness writes, matched by equality or prefix on the rows
 * that carry them (never by searching free text: bug reports and tool results quote these).
 */

/** The retry nudge: a meta user row whose content is exactly one of these (index = wording). */
export const RETRY_NUDGES = [
  'Your tool call was malformed and could not be parsed. Please retry.',
  'The previous response failed to produce a valid tool call. Please retry the tool call now.',
] as const;

/** The text of the synthetic API-error row written when the one retry also failed. */
export const RETRY_EXHAUSTED = "The model's tool call could not be parsed (retry also failed).";

/** 400 errors about tool_use/tool_result pairing or tool input shape, with the kind reported for each. */
export const PAIRING_ERRORS = [
  ['ids_without_results', 'tool_use ids were found without tool_result blocks'],
  ['unexpected_tool_use_id', 'unexpected `tool_use_id`'],
  ['duplicate_tool_use_ids', 'tool_use ids must be unique'],
  ['input_not_object', 'Tool use input must be a string or object'],
  ['input_not_dictionary', '`tool_use.input`: Input should be a valid dictionary'],
] as const;

/** Stray words reported before leaked markup; only the list entry is ever reported. */
export const OPENER_WORDS = ['court', 'call', 'count', 'caught', 'co', 'card'] as const;

/** Starts of user rows (or tool results) that mean the user interrupted or rejected the call. */
export const INTERRUPT_PREFIXES = ['[Request interrupted by user', '[Tool call did not complete', '[Tool call skipped', "The user doesn't want to"] as const;

export const USER_REJECTED = 'User rejected tool use';

/** A tool result whose content says it went missing through an internal error. */
export function isInternalErrorResult(text: string): boolean {
  return text.startsWith('[Tool result missing due to internal error]') || text.startsWith('Tool result missing');
}

export function pairingErrorKind(text: string): number | null {
  if (!text.startsWith('API Error: 400')) return null;
  const i = PAIRING_ERRORS.findIndex(([, phrase]) => text.includes(phrase));
  return i < 0 ? null : i;
}
