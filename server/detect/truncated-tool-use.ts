import type { Collector, Detector } from './detector';

/** Indexes of the messages whose last content block, in row order, is a tool_use. */
type EndsInCall = Set<number>;

/** The reply hit max_tokens while writing a call: the last block is a tool_use, cut short. */
export const truncatedToolUse: Detector<'transcript', EndsInCall> = {
  code: 'truncated_tool_use',
  source: 'transcript',
  collect(): Collector<'transcript', EndsInCall> {
    const endsInCall: EndsInCall = new Set();
    return {
      assistant(blocks, message) {
        // A row with no blocks leaves the message's last block as it was.
        const last = blocks[blocks.length - 1];
        if (last === undefined) return;
        if (last.type === 'tool_use') endsInCall.add(message.index);
        else endsInCall.delete(message.index);
      },
      facts: () => endsInCall,
    };
  },
  detect(file, endsInCall) {
    return file.messages
      .filter((m) => m.stopReason === 'max_tokens' && endsInCall.has(m.index) && !m.synthetic)
      .map((m) => ({ code: 'truncated_tool_use' as const, message: m, sourceLines: [...m.lines] }));
  },
};
