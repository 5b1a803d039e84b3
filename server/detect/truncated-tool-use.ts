import type { Detector } from './detector';

/** The reply hit max_tokens while writing a call: the last block is a tool_use, cut short. */
export const truncatedToolUse: Detector = {
  code: 'truncated_tool_use',
  detect(file) {
    return file.messages
      .filter((m) => m.stopReason === 'max_tokens' && m.lastBlockType === 'tool_use' && !m.synthetic)
      .map((m) => ({ code: 'truncated_tool_use' as const, message: m, sourceLines: [...m.lines] }));
  },
};
