import type { Detector, Finding } from '../detector';

/**
 * A tool_use block that got no input_json_delta before its content_block_stop. The `{}` that
 * content_block_start carries is normal and never a finding by itself. `stop` tells a reply cut
 * at max_tokens from a call that came with no arguments.
 */
export const zeroDeltaToolUse: Detector<'capture'> = {
  code: 'zero_delta_tool_use',
  source: 'capture',
  detect(file) {
    const out: Finding<'capture'>[] = [];
    for (const m of file.messages) {
      for (const b of m.blocks) {
        if (b.type !== 'tool_use' || b.stopLine === null || b.inputDeltas > 0) continue;
        out.push({ code: 'zero_delta_tool_use', message: m, sourceLines: [b.startLine, b.stopLine], details: { stop: m.stopReason ?? 'unknown' } });
      }
    }
    return out;
  },
};
