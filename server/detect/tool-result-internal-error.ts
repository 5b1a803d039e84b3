import type { DetectedFinding, Detector } from './detector';
import { messageBefore } from './linked-message';

/** The harness lost the result itself: "[Tool result missing due to internal error]". */
export const toolResultInternalError: Detector = {
  code: 'tool_result_internal_error',
  detect(file) {
    const callers = new Map<string, { line: number; message: (typeof file.messages)[number] }>();
    for (const m of file.messages) for (const c of m.toolUses) if (c.id !== '') callers.set(c.id, { line: c.line, message: m });
    const findings: DetectedFinding[] = [];
    for (const r of file.toolResults) {
      if (!r.internalError) continue;
      const caller = callers.get(r.toolUseId);
      const message = caller?.message ?? messageBefore(file, r.line);
      if (!message) continue;
      findings.push({ code: 'tool_result_internal_error', message, sourceLines: caller ? [caller.line, r.line] : [r.line] });
    }
    return findings;
  },
};
