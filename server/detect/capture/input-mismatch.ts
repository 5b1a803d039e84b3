import type { CaptureDetector, CaptureFinding } from './capture-detector';

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

/**
 * Where the capture also holds the assembled message (stream-json `assistant` events), its tool
 * input differs from the parse of the concatenated deltas: a client's partial-JSON handling
 * dropped data. Only blocks whose deltas parse are compared.
 */
export const inputMismatch: CaptureDetector = {
  code: 'input_mismatch',
  detect(file) {
    const out: CaptureFinding[] = [];
    const assembled = new Map(file.assembled.map((a) => [a.toolUseId, a]));
    for (const m of file.messages) {
      for (const b of m.blocks) {
        if (b.type !== 'tool_use' || b.toolUseId === null || b.inputDeltas === 0 || b.unparseable || b.stopLine === null) continue;
        const a = assembled.get(b.toolUseId);
        if (a && !sameJson(a.input, b.parsedInput)) out.push({ code: 'input_mismatch', message: m, sourceLines: [b.stopLine, a.line] });
      }
    }
    return out;
  },
};
