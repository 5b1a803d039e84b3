import { NOT_LOST_KINDS } from '../scan/harness-markers';
import type { AssistantMessage, ToolResultFact, ToolUseFact } from '../scan/transcript-model';
import { resultsOf } from './call-outcomes';
import type { Detector, Finding } from './detector';

interface Call {
  call: ToolUseFact;
  message: AssistantMessage;
  errorLine: number | null;
}

/**
 * The same tool called with {} three or more times in a row, each answered by an error: the
 * harness replaying an empty call. One finding per run; a typed prompt, another tool, a call
 * with arguments or a successful result ends a run. Results are paired by id in either order,
 * and refusals that are not about arguments (as for empty_tool_input_with_error_result) do not
 * count.
 */
export const repeatedEmptyToolCall: Detector<'transcript'> = {
  code: 'repeated_empty_tool_call',
  source: 'transcript',
  detect(file) {
    const results = resultsOf(file);
    const lostArguments = (r: ToolResultFact) => r.isError && r.errorKind !== null && !NOT_LOST_KINDS.has(r.errorKind);
    const calls: Call[] = file.messages
      .filter((m) => !m.synthetic && !m.damaged)
      .flatMap((m) => m.toolUses.map((call) => ({ call, message: m, errorLine: results.of(call, lostArguments)?.line ?? null })))
      .sort((a, b) => a.call.line - b.call.line);
    const findings: Finding<'transcript'>[] = [];
    let run: Call[] = [];
    const flush = () => {
      if (run.length >= 3) {
        findings.push({
          code: 'repeated_empty_tool_call',
          message: run[0]!.message,
          sourceLines: run.flatMap((c) => [c.call.line, c.errorLine!]),
          details: { run_length: run.length },
        });
      }
      run = [];
    };
    for (const c of calls) {
      const qualifies = c.call.emptyInput && c.call.id !== '' && c.errorLine !== null;
      const prev = run[run.length - 1];
      const continues =
        prev !== undefined &&
        qualifies &&
        prev.call.name === c.call.name &&
        prev.message.sidechain === c.message.sidechain &&
        !file.prompts.some((p) => p > prev.call.line && p < c.call.line);
      if (!continues) flush();
      if (qualifies) run.push(c);
    }
    flush();
    return findings;
  },
};
