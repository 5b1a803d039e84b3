/**
 * What a finding's details mean, in words, for the page (and any other reader): the detectors
 * (server/detect/) record short keys and values (`len`, `error_kind: "other"`), which alone a reader
 * cannot interpret. A key without an entry here is shown as written, underscores as spaces.
 */
export const DETAIL_LABELS: Readonly<Record<string, string>> = {
  len: 'unparsed input length (bytes, as Claude Code recorded it)',
  error_kind: 'error kind of the call’s result',
  tool: 'tool (built-in name; mcp or other for the rest)',
  kind: 'API error kind',
  shape: 'shape of the message the harness retried',
  wording: 'retry wording',
  run_length: 'empty calls in a row',
  variant: 'variant',
  opener: 'stray word before the leaked markup',
};

/** The error kinds of a refused call's result (server/scan/harness-markers.ts), and the two a detail adds. */
export const ERROR_KIND_WORDS: Readonly<Record<string, string>> = {
  missing_parameter: 'a required parameter was missing (validation error)',
  schema_not_loaded: 'a deferred tool was called before its schema was loaded',
  no_such_tool: 'no such tool was available',
  cancelled_sibling: 'cancelled because a parallel call failed',
  permission_denied: 'denied by a permission rule or the auto-mode classifier',
  user_rejected: 'the user rejected the call',
  hook_blocked: 'a hook blocked the call',
  other: 'an error of no known kind',
  no_result: 'no result was written for the call',
  none: 'the call succeeded (its result was not an error)',
};

/** One detail as a label and a value a person reads: `["error kind of the call’s result", "other: an error of no known kind"]`. */
export function describeDetail(key: string, value: string | number | boolean): [string, string] {
  const label = DETAIL_LABELS[key] ?? key.replaceAll('_', ' ');
  const text = String(value);
  const words = key === 'error_kind' ? ERROR_KIND_WORDS[text] : undefined;
  return [label, words ? `${text}: ${words}` : text];
}
