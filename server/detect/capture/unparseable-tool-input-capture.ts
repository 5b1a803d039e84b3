import type { Detector, Finding } from '../detector';

/** The concatenated input_json_delta text of a tool_use block does not parse as JSON (never repaired). */
export const unparseableToolInputCapture: Detector<'capture'> = {
  code: 'unparseable_tool_input',
  source: 'capture',
  detect(file) {
    const out: Finding<'capture'>[] = [];
    for (const m of file.messages) {
      for (const b of m.blocks)
        if (b.unparseable && b.stopLine !== null) out.push({ code: 'unparseable_tool_input', message: m, sourceLines: [b.startLine, b.stopLine] });
    }
    return out;
  },
};
