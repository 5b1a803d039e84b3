import { toolClass } from '../scan/build-transcript';
import { NOT_LOST_KINDS } from '../scan/harness-markers';
import type { ToolResultFact } from '../scan/transcript-model';
import { builtInParameter } from './built-in-parameters';
import { callsOf, resultsOf } from './call-outcomes';
import type { Detector, Finding } from './detector';

/**
 * A call whose input arrived as exactly {} and whose result, anywhere in the same file (paired
 * by id: a result row can stand before its call's row), is an error: the arguments were lost on
 * the way. A tool that legitimately takes no arguments succeeds and is never flagged; neither
 * is a call with no result or a successful one, nor a refusal that is not about arguments: an
 * unknown tool name (no_such_tool), a sibling's cancellation, or a denial (permission,
 * the user, a hook). The result's error kind is reported as `error_kind`, the tool as `tool`
 * (built-in name, `mcp` or `other`) and, for a built-in tool, the missing parameter's name when
 * it is one of that tool's own (`missing_parameter`, from BUILT_IN_PARAMETERS).
 */
export const emptyToolInputWithErrorResult: Detector<'transcript'> = {
  code: 'empty_tool_input_with_error_result',
  source: 'transcript',
  detect(file) {
    const results = resultsOf(file);
    const isError = (r: ToolResultFact) => r.isError;
    const findings: Finding<'transcript'>[] = [];
    for (const { message, call } of callsOf(file)) {
      if (!call.emptyInput || call.id.length === 0 || message.damaged) continue;
      const result = results.of(call, isError);
      if (result === null || result.errorKind === null || NOT_LOST_KINDS.has(result.errorKind)) continue;
      const tool = toolClass(call.name);
      const details: Record<string, string> = { error_kind: result.errorKind, tool };
      const missing = result.errorKind === 'missing_parameter' ? builtInParameter(tool, result.missingParameter) : null;
      if (missing !== null) details.missing_parameter = missing;
      findings.push({ code: 'empty_tool_input_with_error_result', message, sourceLines: [call.line, result.line], details });
    }
    return findings;
  },
};
