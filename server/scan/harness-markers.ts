import { TURN_END_API_ERROR_KINDS, type TurnEndApiErrorKind } from '../../shared/turn-ends';
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

/** Stray words reported before leaked markup; only the list entry is ever reported. */
export const OPENER_WORDS = ['court', 'call', 'count', 'caught', 'co', 'card'] as const;

/** Starts of user rows (or tool results) that mean the user interrupted or rejected the call. */
export const INTERRUPT_PREFIXES = ['[Request interrupted by user', '[Tool call did not complete', '[Tool call skipped', "The user doesn't want to"] as const;

export const USER_REJECTED = 'User rejected tool use';

/**
 * Why a refused call was refused, from the fixed wordings Claude Code writes in its error result
 * (FORMAT.md §4 and §7, TAXONOMY §0, T5, T5u). Only the kind ever leaves the scanner.
 * - missing_parameter: an InputValidationError naming a required parameter that is missing;
 * - schema_not_loaded: a deferred tool called before its schema was loaded ("This tool's schema was not sent to the API");
 * - no_such_tool: "No such tool available" (an unknown or unloaded name);
 * - cancelled_sibling: a parallel sibling failed, so this call never ran;
 * - permission_denied: the auto-mode classifier, a permission rule, an auto-mode outage, an approval still needed;
 * - user_rejected: the user said no;
 * - hook_blocked: a hook blocked or denied the call;
 * - other: any other error (including validation errors that name no missing parameter).
 */
export const ERROR_KINDS = [
  'missing_parameter',
  'schema_not_loaded',
  'no_such_tool',
  'cancelled_sibling',
  'permission_denied',
  'user_rejected',
  'hook_blocked',
  'other',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Kinds that are someone's decision (a denial, a rejection, a hook) or a harness cancellation, not lost arguments. */
export const NOT_LOST_KINDS: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  'no_such_tool',
  'cancelled_sibling',
  'permission_denied',
  'user_rejected',
  'hook_blocked',
]);

// Order matters: the first pattern that matches decides (a deferred-schema refusal also names a missing parameter).
const ERROR_KIND_PATTERNS: ReadonlyArray<readonly [ErrorKind, RegExp]> = [
  ['schema_not_loaded', /This tool's schema was not sent to the API/],
  ['no_such_tool', /^(?:<tool_use_error>)?(?:Error: )?No such tool available\b/],
  ['cancelled_sibling', /^(?:<tool_use_error>)?(?:Sibling tool call errored|Cancelled: parallel tool call)/],
  [
    'user_rejected',
    /^(?:<tool_use_error>)?(?:Error: )?(?:The user doesn't want to (?:proceed|take this action)|User rejected tool use|\[Request interrupted by user)/,
  ],
  [
    'permission_denied',
    /^(?:<tool_use_error>)?(?:Error: )?(?:Permission for this action was denied|Permission to use \S+ (?:with [^\n]* )?has been denied|This command requires approval|Claude requested permissions to |[^\n]{0,200} is temporarily unavailable, so auto mode cannot determine the safety of )/,
  ],
  [
    'hook_blocked',
    /^(?:<tool_use_error>)?(?:Error: )?(?:(?:Pre|Post)ToolUse:\S+ hook (?:error|blocking error|denied|blocked)|Hook (?:\S+ )?(?:denied|blocked) (?:this|the) tool|Blocked by (?:a )?hook)/,
  ],
  ['missing_parameter', /InputValidationError[\s\S]{0,2000}?(?:The required parameter `?[^`\n]{1,200}`? is missing|received undefined)/],
];

/** Denial kinds a harness writes in toolUseResult beside the text (`toolDenialKind`). */
const DENIAL_KINDS: Record<string, ErrorKind> = { 'user-rejected': 'user_rejected', 'automode-unavailable': 'permission_denied' };

/**
 * The kind of an error result, from its text (the tool_result content) and, when the row has
 * them, the sibling toolUseResult string and toolDenialKind.
 */
export function errorKindOf(text: string | null, toolUseResult: unknown, denialKind: unknown): ErrorKind {
  if (typeof denialKind === 'string' && Object.hasOwn(DENIAL_KINDS, denialKind)) return DENIAL_KINDS[denialKind]!;
  for (const candidate of [text, typeof toolUseResult === 'string' ? toolUseResult : null]) {
    if (candidate === null) continue;
    const head = candidate.length > 4000 ? candidate.slice(0, 4000) : candidate;
    for (const [kind, pattern] of ERROR_KIND_PATTERNS) if (pattern.test(head)) return kind;
  }
  return 'other';
}

/** The result is a validation refusal (the harness checked the input and did not run the call). */
export function isValidationRefusal(text: string | null): boolean {
  return text !== null && (text.includes('InputValidationError') || text.includes("This tool's schema was not sent to the API"));
}

/** The parameter an InputValidationError says is missing, when it is an identifier (the caller checks it against a fixed list). */
export function missingParameterOf(text: string | null): string | null {
  if (text === null) return null;
  const m = /InputValidationError[\s\S]{0,2000}?The required parameter `?([A-Za-z_][A-Za-z0-9_]{0,63})`? is missing/.exec(
    text.length > 4000 ? text.slice(0, 4000) : text,
  );
  return m ? m[1]! : null;
}

/**
 * What a harness-written API-error row (`<synthetic>`, isApiErrorMessage) says went wrong, by the
 * fixed prefixes of its text (FORMAT.md, "Further facts"); only the kind leaves the scanner.
 * - rate_limit: a usage, session, weekly or spend limit, or a 429;
 * - authentication: not logged in, login expired, a 401;
 * - server_error: a 5xx, overloaded, a stalled stream;
 * - timeout: a request that timed out;
 * - connection: the API could not be reached or the socket closed;
 * - bad_request: any other 4xx the API sent back;
 * - retry_exhausted: the malformed tool call's retry also failed;
 * - no_response_requested: the placeholder a resumed session writes ("No response requested.", not flagged
 *   isApiErrorMessage): no API call failed, but no model answered either;
 * - other: any other text (or none).
 */
// The list itself lives once, in shared/turn-ends.ts, where the API and the page read it too.
export const API_ERROR_KINDS = TURN_END_API_ERROR_KINDS;
export type ApiErrorKind = TurnEndApiErrorKind;

// Anchored at the start: the harness writes these texts whole; the first that matches decides.
const API_ERROR_PATTERNS: ReadonlyArray<readonly [ApiErrorKind, RegExp]> = [
  [
    'rate_limit',
    /^(?:You've hit your (?:[a-z]+ )*limit|You've reached your (?:[a-z]+ )*limit|API Error: (?:Request rejected )?\(?429\b|Claude (?:AI )?usage limit reached)/,
  ],
  [
    'authentication',
    /^(?:Not logged in|Login expired|Please run \/login|Failed to authenticate|Invalid API key|OAuth token (?:has )?expired|API Error: 401\b)/,
  ],
  ['timeout', /^(?:API Error: )?(?:Request timed out|The request timed out|Timed out|API Error: 408\b|API Error: 504\b)/i],
  ['server_error', /^API Error: (?:5\d\d\b|Response stalled|Overloaded|Internal server error)/],
  ['connection', /^API Error: (?:Unable to connect|The socket connection was closed|Connection error|fetch failed)/],
  ['bad_request', /^API Error: 4\d\d\b/],
];

/** The kind of a harness-written error row's text (its first text block). */
export function apiErrorKindOf(text: string): ApiErrorKind {
  if (text === RETRY_EXHAUSTED) return 'retry_exhausted';
  if (text === 'No response requested.') return 'no_response_requested';
  const head = text.length > 400 ? text.slice(0, 400) : text;
  for (const [kind, pattern] of API_ERROR_PATTERNS) if (pattern.test(head)) return kind;
  return 'other';
}
