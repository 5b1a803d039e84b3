import type { Detector } from './detector';

/**
 * The API said the turn stopped to call a tool, yet no tool_use block reached the
 * transcript: the call was lost. Rows of one message are grouped by message.id wherever
 * they stand, so a text row whose sibling row holds the call is not a finding, and a
 * message whose rows all say stop_reason null is unknown, never evidence. Harness-written
 * (synthetic API error) messages are not model turns and are left out. `output_tokens` when the
 * message records `usage.output_tokens`.
 */
export const missingToolUseBlock: Detector<'transcript'> = {
  code: 'missing_tool_use_block',
  source: 'transcript',
  detect(file) {
    return file.messages
      .filter((m) => m.stopReason === 'tool_use' && m.toolUses.length === 0 && !m.synthetic && !m.blockTypes.includes('server_tool_use'))
      .map((m) => ({
        code: 'missing_tool_use_block' as const,
        message: m,
        sourceLines: [...m.lines],
        ...(m.outputTokens != null ? { details: { output_tokens: m.outputTokens } } : {}),
      }));
  },
};
