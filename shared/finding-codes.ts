/**
 * Finding codes and their one-line definitions. Shared by the server (detectors, store,
 * exports) and the web page (labels, toggles). The README's detector table is checked
 * against this list by a test, so a new code cannot ship undocumented.
 */
export const FINDING_CODES = ['missing_tool_use_block', 'empty_tool_input_with_error_result'] as const;

export type FindingCode = (typeof FINDING_CODES)[number];

export const FINDING_DEFINITIONS: Record<FindingCode, string> = {
  missing_tool_use_block:
    'An assistant message (all rows sharing one message.id in a file) whose stop reason is tool_use but which holds no tool_use block.',
  empty_tool_input_with_error_result:
    'A tool_use block with a non-empty id and input exactly {}, answered later in the same file by a tool_result for that id with is_error: true.',
};

/** Bumped whenever a detector's rule changes, so reports say which definitions produced them. */
export const DETECTOR_DEFINITIONS_VERSION = 1;

export function isFindingCode(value: string): value is FindingCode {
  return (FINDING_CODES as readonly string[]).includes(value);
}
