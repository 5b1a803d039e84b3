import type { AssistantMessage, ToolUseFact } from '../scan/transcript-model';
import type { DetectedFinding, Detector } from './detector';

interface Call {
  call: ToolUseFact;
  message: AssistantMessage;
  errorLine: number | null;
}

/**
 * The same tool called with {} three or more times in a row, each answered by an error: the
 * harness replaying an empty call. One finding per run; a typed prompt, another tool, a call
 * with arguments or a successful result ends a run.
 */
export const repeatedEmptyToolCall: Detector = {
  code: 'repeated_empty_tool_call',
  detect(file) {
    const errors = new Map<string, number[]>();
    for (const r of file.toolResults) if (r.isError) errors.set(r.toolUseId, [...(errors.get(r.toolUseId) ?? []), r.line]);
    const calls: Call[] = file.messages
      .filter((m) => !m.synthetic)
      .flatMap((m) => m.toolUses.map((call) => ({ call, message: m, errorLine: errors.get(call.id)?.find((l) => l > call.line) ?? null })))
      .sort((a, b) => a.call.line - b.call.line);
    const findings: DetectedFinding[] = [];
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
