import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import { findLeakedInvoke, outsideCodeFences } from '../../server/scan/leaked-invoke';
import { fixturesRoot } from '../support/detector-fixtures';

function details(code: string, file: string) {
  const a = analyseFile(join(fixturesRoot, 'detectors', code, file));
  if (a.status !== 'ok') throw new Error('fixture did not scan');
  return a.findings.filter((f) => f.code === code).map((f) => f.details);
}

describe("detector metadata (codes and list entries only; every transcript finding adds its message's stop reason)", () => {
  it.each([
    ['text_leaked_tool_call', 'positive-silent-with-opener.jsonl', { stop_reason: 'end_turn', variant: 'silent', opener: 'court' }],
    ['text_leaked_tool_call', 'positive-caught-by-nudge.jsonl', { stop_reason: 'end_turn', variant: 'caught', opener: 'none' }],
    ['malformed_retry_injected', 'positive-after-missing-block.jsonl', { stop_reason: 'tool_use', shape: 'missing_tool_use_block', wording: 0 }],
    ['malformed_retry_injected', 'positive-second-wording-after-leak.jsonl', { stop_reason: 'end_turn', shape: 'text_leaked_tool_call', wording: 1 }],
    ['malformed_retry_exhausted', 'positive-retry-also-failed.jsonl', { stop_reason: 'tool_use', shape: 'missing_tool_use_block' }],
    ['api_tool_pairing_error', 'positive-ids-without-results.jsonl', { stop_reason: 'end_turn', kind: 'ids_without_results' }],
    ['repeated_empty_tool_call', 'positive-run-of-four.jsonl', { stop_reason: 'tool_use', run_length: 4 }],
  ])('%s in %s', (code, file, want) => {
    expect(details(code, file)).toEqual([want]);
  });
});

describe('leaked markup is matched on structure', () => {
  it('ignores fenced code, finds bare markup, and reports only a listed opener', () => {
    expect(outsideCodeFences('a\n```\nb\n```\nc\n~~~x\nd\n~~~\ne')).toBe('a\nc\ne');
    expect(findLeakedInvoke('call\n<invoke name="Bash">\n<parameter name="command">x</parameter>')).toEqual({ opener: 1 });
    expect(findLeakedInvoke('secretword <invoke name="Bash"><parameter name="command">x</parameter>')).toEqual({ opener: null });
    expect(findLeakedInvoke('<invoke name="Bash"> but no parameter')).toBeNull();
    expect(findLeakedInvoke('```\n<invoke name="Bash">\n<parameter name="c">x</parameter>\n```')).toBeNull();
    expect(findLeakedInvoke('no markup here')).toBeNull();
    const wrapped = '<function_calls>\n<invoke name="Glob">\n<parameter name="pattern">*</parameter>\n</invoke>\n</function_calls>';
    expect(findLeakedInvoke(wrapped)).toBeNull();
    expect(findLeakedInvoke(wrapped + '\ncall <invoke name="Bash">\n<parameter name="c">x</parameter>')).toEqual({ opener: 1 });
  });
});
