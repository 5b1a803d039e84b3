import { toolClass } from '../scan/build-transcript';
import { callsOf, resultsOf } from './call-outcomes';
import type { Detector, Finding } from './detector';

/**
 * Transcript: a tool_use whose input holds the key `__unparsedToolInput`, whatever else it holds
 * or however odd its value: the streamed arguments were not valid JSON, and Claude Code (2.1.209+)
 * kept what arrived and refused the call instead of running it with {}. Details: `len` (the byte
 * count Claude Code recorded, only when it is a non-negative safe integer), `tool` (a built-in
 * tool name, else `mcp` or `other`), and `error_kind` of the result paired by id (`no_result`
 * when there is none, `none` when it succeeded); of `raw` (payload) only `raw_chars` (its length)
 * and where it stops parsing as JSON (`stop_offset`, and `stop_expected`, a JSON_EXPECTED word).
 */
export const unparseableToolInputTranscript: Detector<'transcript'> = {
  code: 'unparseable_tool_input',
  source: 'transcript',
  agents: ['claude-code', 'opencode'],
  detect(file) {
    const results = resultsOf(file);
    const findings: Finding<'transcript'>[] = [];
    for (const { message, call } of callsOf(file)) {
      if (call.unparsed === null || message.damaged) continue;
      const result = results.of(call);
      const details: Record<string, string | number> = { tool: toolClass(call.name), error_kind: result === null ? 'no_result' : (result.errorKind ?? 'none') };
      if (call.unparsed.len !== null) details.len = call.unparsed.len;
      if (call.unparsed.rawChars != null) details.raw_chars = call.unparsed.rawChars;
      if (call.unparsed.stop) {
        details.stop_offset = call.unparsed.stop.offset;
        details.stop_expected = call.unparsed.stop.expected;
      }
      findings.push({ code: 'unparseable_tool_input', message, sourceLines: result === null ? [call.line] : [call.line, result.line], details });
    }
    return findings;
  },
};
