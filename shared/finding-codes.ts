/**
 * Finding codes and their one-line definitions. Shared by the server (detectors, store,
 * exports) and the web page (labels, toggles). The detector table of server/detect/README.md is checked
 * against this list by a test, so a new code cannot ship undocumented.
 */
export const FINDING_CODES = [
  'missing_tool_use_block',
  'empty_tool_input_with_error_result',
  'text_leaked_tool_call',
  'malformed_retry_injected',
  'malformed_retry_exhausted',
  'truncated_tool_use',
  'orphan_tool_use',
  'tool_result_internal_error',
  'api_tool_pairing_error',
  'repeated_empty_tool_call',
  'zero_delta_tool_use',
  'tool_use_stop_without_block',
  'unparseable_tool_input',
  'input_mismatch',
  'malformed_tool_use_exhausted',
  'thinking_cut_at_max_tokens',
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];

export const FINDING_DEFINITIONS: Record<FindingCode, string> = {
  missing_tool_use_block: 'An assistant message (all rows sharing one message.id in a file) whose stop reason is tool_use but which holds no tool_use block.',
  empty_tool_input_with_error_result:
    'A tool_use block with a non-empty id and input exactly {}, answered in the same file (paired by id, in either order) by a tool_result for that id with is_error: true, unless the error is a refusal that is not about arguments (no_such_tool, cancelled_sibling, permission_denied, user_rejected, hook_blocked). error_kind: the result classified by fixed patterns.',
  text_leaked_tool_call:
    'An assistant text block holding bare tool-call markup (<invoke name=…> with <parameter name=…>) outside code fences, in a message with no tool_use block. variant: silent (the turn ended) or caught (the retry nudge follows); opener: which listed stray word preceded it, if any.',
  malformed_retry_injected:
    "The harness's retry nudge (a meta user row whose whole content is the known wording), linked to the assistant message it follows; shape: that message's failure (missing_tool_use_block, text_leaked_tool_call or unexplained).",
  malformed_retry_exhausted:
    "The harness's synthetic API-error row saying the retry also failed, linked to the assistant message it follows, with that message's shape.",
  truncated_tool_use: 'A message whose stop reason is max_tokens and whose last block is a tool_use: the call was cut off.',
  orphan_tool_use:
    "A tool_use with no tool_result anywhere in its file (paired by id, in either order); not counted for calls the user interrupted or rejected, calls split from their result by compaction (a compact_boundary before the next model message: diagnostic compaction_split), calls after which the file holds no other model message (the file's last message, or only progress/attachment/system rows or siblings' results: diagnostic call_open_at_end), or files still being written.",
  tool_result_internal_error: 'A tool_result whose content says the result went missing through an internal error.',
  api_tool_pairing_error: 'A synthetic API-error row reporting a 400 about tool_use/tool_result pairing or tool input shape; kind: which one.',
  repeated_empty_tool_call:
    'The same tool called with {} three or more times in a row, each answered by an error (paired by id; refusals that are not about arguments do not count, as for empty_tool_input_with_error_result). One finding per run; run_length: how many calls.',
  zero_delta_tool_use:
    'Stream capture: a tool_use block that received no input_json_delta before its content_block_stop; stop: the message stop reason (max_tokens: truncated; tool_use: the call came with no arguments).',
  tool_use_stop_without_block: 'Stream capture: message_delta says stop_reason tool_use, but no tool_use block was started in the message.',
  unparseable_tool_input:
    'Transcript: a tool_use whose input holds the key __unparsedToolInput (Claude Code could not parse the streamed arguments and refused the call); len: the recorded byte count when it is a sane integer, tool: a built-in tool name or mcp/other, error_kind: the result paired by id (no_result when none). Stream capture: the concatenated input_json_delta text of a tool_use block does not parse as JSON.',
  input_mismatch:
    "Stream capture: the assembled assistant event's tool input differs from the parse of the concatenated deltas (a client's partial-JSON handling dropped data).",
  malformed_tool_use_exhausted:
    "Stream capture (stream-json): the run's result row says terminal_reason malformed_tool_use_exhausted: the turn died after the harness's one retry of a malformed tool call (Claude Code 2.1.204+; earlier versions said completed).",
  thinking_cut_at_max_tokens:
    'A model message (all rows sharing one message.id) whose blocks are only thinking or redacted_thinking and whose stop reason is max_tokens: the reply was cut while thinking, before any text or call; Claude Code writes no error row. output_tokens: the recorded count, when one is.',
};

/** Bumped whenever a detector's rule changes, so reports say which definitions produced them. */
export const DETECTOR_DEFINITIONS_VERSION = 5;

export function isFindingCode(value: string): value is FindingCode {
  return (FINDING_CODES as readonly string[]).includes(value);
}
