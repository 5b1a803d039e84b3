import { firstText } from '../scan/build-transcript';
import type { Collector, Detector, Finding } from './detector';
import { messageBefore } from './linked-message';

/** A tool result's text that says it went missing through an internal error (the harness's own words). */
export function isInternalErrorResult(text: string): boolean {
  return text.startsWith('[Tool result missing due to internal error]') || text.startsWith('Tool result missing');
}

/** Tool results, in file order, whose content says they went missing: the id they answer (in memory only) and their line. */
type MissingResults = { toolUseId: string; line: number }[];

/** The harness lost the result itself: "[Tool result missing due to internal error]". */
export const toolResultInternalError: Detector<'transcript', MissingResults> = {
  code: 'tool_result_internal_error',
  source: 'transcript',
  collect(): Collector<'transcript', MissingResults> {
    const missing: MissingResults = [];
    return {
      user(content, _row, line) {
        if (typeof content === 'string') return;
        for (const block of content) {
          if (block.type !== 'tool_result') continue;
          const text = firstText(block.content);
          if (text !== null && isInternalErrorResult(text)) missing.push({ toolUseId: block.tool_use_id as string, line });
        }
      },
      facts: () => missing,
    };
  },
  detect(file, missing) {
    const callers = new Map<string, { line: number; message: (typeof file.messages)[number] }>();
    for (const m of file.messages) for (const c of m.toolUses) if (c.id !== '') callers.set(c.id, { line: c.line, message: m });
    const findings: Finding<'transcript'>[] = [];
    for (const r of missing) {
      const caller = callers.get(r.toolUseId);
      const message = caller?.message ?? messageBefore(file, r.line);
      if (!message) continue;
      findings.push({ code: 'tool_result_internal_error', message, sourceLines: caller ? [caller.line, r.line] : [r.line] });
    }
    return findings;
  },
};
