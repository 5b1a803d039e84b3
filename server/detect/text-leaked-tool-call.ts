import { OPENER_WORDS } from '../scan/harness-markers';
import type { Detector } from './detector';
import { nextMessageStart } from './linked-message';

/**
 * The call was written as text instead of a tool_use block. Matched on structure (an
 * assistant text block, outside code fences, with no tool_use in the message), so markup a
 * user or a tool result quotes is never counted.
 */
export const textLeakedToolCall: Detector<'transcript'> = {
  code: 'text_leaked_tool_call',
  source: 'transcript',
  detect(file) {
    return file.messages
      .filter((m) => m.leak !== null && m.toolUses.length === 0 && !m.synthetic)
      .map((m) => {
        const last = m.lines[m.lines.length - 1]!;
        const next = nextMessageStart(file, m);
        const caught = file.nudges.some((n) => n.line > last && n.line < next && n.sidechain === m.sidechain);
        return {
          code: 'text_leaked_tool_call' as const,
          message: m,
          sourceLines: [...m.lines],
          details: { variant: caught ? 'caught' : 'silent', opener: m.leak!.opener === null ? 'none' : OPENER_WORDS[m.leak!.opener]! },
        };
      });
  },
};
