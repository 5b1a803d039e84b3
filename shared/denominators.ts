import { type FindingCode, isFindingCode } from './finding-codes';
import { perThousand } from './statistics';

/**
 * Denominators, in one place: which count each finding code's rate is over (its *opportunities*),
 * why a code has no rate where that count is zero, and a code's figures over a row's counts. The
 * index stores the four counts per file and day (server/index/analyse-for-index.ts says what each
 * message counts in); the query layer, the report, the CLI and the page read what a code is over
 * from here and nowhere else. server/query/README.md ("Denominators") explains the choices.
 */

/**
 * What a code's rate is measured over: the messages where it could have fired. A rate over
 * messages where a detector cannot fire would show a reassuring 0‰ where nothing was measured.
 * - tool_use_turns: messages whose stop reason is tool_use, or unknown with a tool_use block;
 * - stop_known_messages: messages with a recorded stop reason (2.1.12–2.1.52 record none);
 * - assistant_messages: every model message (harness-written rows excluded);
 * - capture_messages: messages read from stream captures (stream-json or SSE).
 */
export const OPPORTUNITIES = ['tool_use_turns', 'stop_known_messages', 'assistant_messages', 'capture_messages'] as const;
export type Opportunity = (typeof OPPORTUNITIES)[number];

export const FINDING_OPPORTUNITY: Record<FindingCode, Opportunity> = {
  missing_tool_use_block: 'stop_known_messages',
  empty_tool_input_with_error_result: 'tool_use_turns',
  text_leaked_tool_call: 'assistant_messages',
  malformed_retry_injected: 'assistant_messages',
  malformed_retry_exhausted: 'assistant_messages',
  truncated_tool_use: 'stop_known_messages',
  orphan_tool_use: 'tool_use_turns',
  tool_result_internal_error: 'tool_use_turns',
  api_tool_pairing_error: 'assistant_messages',
  repeated_empty_tool_call: 'tool_use_turns',
  zero_delta_tool_use: 'capture_messages',
  tool_use_stop_without_block: 'capture_messages',
  unparseable_tool_input: 'tool_use_turns',
  input_mismatch: 'capture_messages',
  malformed_tool_use_exhausted: 'capture_messages',
  thinking_cut_at_max_tokens: 'stop_known_messages',
};

/** Why a code has no rate where its opportunities are zero: one reason code per opportunity. */
export const NOT_MEASURABLE_REASON: Record<Opportunity, string> = {
  tool_use_turns: 'no_tool_use_turns',
  stop_known_messages: 'stop_reason_not_recorded',
  assistant_messages: 'no_messages',
  capture_messages: 'no_captures',
};

/** The sentence the page, report and export show for a reason code. */
export const NOT_MEASURABLE_TEXT: Record<string, string> = {
  no_tool_use_turns: 'not measurable (no tool-use turns)',
  stop_reason_not_recorded: 'not measurable (stop reason not recorded)',
  no_messages: 'not measurable (no model messages)',
  no_captures: 'not measurable (no stream captures indexed)',
};

/** The denominators every rate row carries; a code's opportunities are one of them. */
export interface Denominators {
  assistant_messages: number;
  tool_use_turns: number;
  stop_known_messages: number;
  capture_messages: number;
}

/** What an API or report row names a code's rate over: the code's opportunity (tool-use turns for a code this build does not know). */
export function opportunityOf(code: string): Opportunity {
  return isFindingCode(code) ? FINDING_OPPORTUNITY[code] : 'tool_use_turns';
}

/** A code's count over a row's denominators: the rate per 1,000 of its own opportunities with its 95% interval, or, where it has none, no rate and the reason. */
export function codeFigures(code: FindingCode, count: number, d: Denominators) {
  const opportunity = FINDING_OPPORTUNITY[code];
  const opportunities = d[opportunity];
  return {
    code,
    count,
    opportunity,
    opportunities,
    per_1000_opportunities: perThousand(count, opportunities),
    not_measurable: opportunities > 0 ? null : NOT_MEASURABLE_REASON[opportunity],
  };
}
