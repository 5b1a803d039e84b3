import type { ToolResultFact } from '../scan/transcript-model';
import type { DetectedFinding, Detector } from './detector';

/**
 * A call whose input arrived as exactly {} and whose result, later in the same file, is an
 * error: the arguments were lost on the way. A tool that legitimately takes no arguments
 * succeeds and is never flagged; so are calls with no result, with a successful result, or
 * with a result that stands before the call.
 */
export const emptyToolInputWithErrorResult: Detector = {
  code: 'empty_tool_input_with_error_result',
  detect(file) {
    const errorsById = new Map<string, ToolResultFact[]>();
    for (const result of file.toolResults) {
      if (!result.isError) continue;
      const list = errorsById.get(result.toolUseId);
      if (list) list.push(result);
      else errorsById.set(result.toolUseId, [result]);
    }
    const findings: DetectedFinding[] = [];
    for (const message of file.messages) {
      for (const call of message.toolUses) {
        if (!call.emptyInput || call.id.length === 0) continue;
        const result = errorsById.get(call.id)?.find((r) => r.line > call.line);
        if (result === undefined) continue;
        findings.push({ code: 'empty_tool_input_with_error_result', message, sourceLines: [call.line, result.line] });
      }
    }
    return findings;
  },
};
