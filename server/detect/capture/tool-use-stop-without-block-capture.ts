import type { Detector } from '../detector';

/** message_delta said stop_reason tool_use, but no tool_use block was started in that message. */
export const toolUseStopWithoutBlock: Detector<'capture'> = {
  code: 'tool_use_stop_without_block',
  source: 'capture',
  detect(file) {
    return file.messages
      .filter((m) => m.stopReason === 'tool_use' && m.stopLine !== null && !m.blocks.some((b) => b.type === 'tool_use'))
      .map((m) => ({ code: 'tool_use_stop_without_block' as const, message: m, sourceLines: [m.startLine, m.stopLine!] }));
  },
};
