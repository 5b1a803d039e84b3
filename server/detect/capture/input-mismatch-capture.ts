import type { CaptureBlock } from '../../scan/capture-model';
import type { Collector, Detector, Finding } from '../detector';

/** Deep equality of JSON values, key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => sameJson(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Both versions of each tool input, in memory only (payload: never leaves the detector). */
interface ToolInputs {
  /** Per streamed tool_use block whose deltas parsed: that parse. */
  streamed: Map<CaptureBlock, unknown>;
  /** stream-json only: per tool_use id, the input of the assembled `assistant` event (the last one wins) and its line. */
  assembled: Map<string, { input: unknown; line: number }>;
}

/**
 * Where the capture also holds the assembled message (stream-json `assistant` events), its tool
 * input differs from the parse of the concatenated deltas: a client's partial-JSON handling
 * dropped data. Only blocks whose deltas parse are compared.
 */
export const inputMismatch: Detector<'capture', ToolInputs> = {
  code: 'input_mismatch',
  source: 'capture',
  collect(): Collector<'capture', ToolInputs> {
    const inputs: ToolInputs = { streamed: new Map(), assembled: new Map() };
    return {
      toolInput(block, input) {
        if (input !== undefined) inputs.streamed.set(block, input);
      },
      row(row, line) {
        if (row.type !== 'assistant') return;
        // The builder checked the shape: message.content is an array of objects with a string type.
        const content = (row.message as { content: { type: string; id?: unknown; input?: unknown }[] }).content;
        for (const b of content) if (b.type === 'tool_use' && typeof b.id === 'string') inputs.assembled.set(b.id, { input: b.input, line });
      },
      facts: () => inputs,
    };
  },
  detect(file, inputs) {
    const out: Finding<'capture'>[] = [];
    for (const m of file.messages) {
      for (const b of m.blocks) {
        if (b.type !== 'tool_use' || b.toolUseId === null || !inputs.streamed.has(b) || b.stopLine === null) continue;
        const a = inputs.assembled.get(b.toolUseId);
        if (a && !sameJson(a.input, inputs.streamed.get(b))) out.push({ code: 'input_mismatch', message: m, sourceLines: [b.stopLine, a.line] });
      }
    }
    return out;
  },
};
