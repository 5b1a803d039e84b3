import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import { jsonStop } from '../../server/scan/json-stop';
import { newCanary, writeCanaryTranscripts } from '../support/canary-transcripts';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-shape-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * Issue 28's redacted shape of a lost call: every new field fires on the canary transcripts
 * (the canary in raw, in a missing parameter's name, in the entrypoint, in the result text),
 * and none carries it: only offsets, lengths, counts and words from fixed lists.
 */
describe('the redacted shape of a lost call holds metadata only', () => {
  const canary = newCanary();
  const root = writeCanaryTranscripts(tmp, canary);
  const project = join(root, `-home-${canary}-project`);
  const findings = ['real-shapes.jsonl', 'issue-28-shapes.jsonl'].flatMap((f) => {
    const a = analyseFile(join(project, f), { forIndex: true });
    if (a.status !== 'ok') throw new Error(`${f} did not scan`);
    return a.findings;
  });
  const detailsOf = (code: string) => findings.filter((f) => f.code === code).map((f) => f.details);

  it('unparseable input: raw length and where it stops parsing, never the bytes', () => {
    const raw = `{"file_path": "${canary}`;
    expect(detailsOf('unparseable_tool_input')).toEqual([
      expect.objectContaining({ tool: 'Read', len: 17, raw_chars: raw.length, stop_offset: raw.length, stop_expected: 'string_end' }),
      expect.objectContaining({ tool: 'mcp', raw_chars: canary.length, stop_offset: 0, stop_expected: 'value' }),
    ]);
  });

  it('{} refused calls: the missing parameter only when it is one of the built-in tool`s own', () => {
    const refused = detailsOf('empty_tool_input_with_error_result');
    expect(refused.filter((d) => d.missing_parameter !== undefined)).toEqual([expect.objectContaining({ tool: 'Read', missing_parameter: 'file_path' })]);
    // The canary named as Bash's missing parameter, file_path named for Bash (not its own), an MCP tool's: never reported.
    expect(refused.filter((d) => d.error_kind === 'missing_parameter' && d.missing_parameter === undefined).length).toBeGreaterThanOrEqual(2);
  });

  it('missing blocks: output tokens; every finding: stop reason and entrypoint from fixed lists', () => {
    expect(detailsOf('missing_tool_use_block')).toContainEqual(expect.objectContaining({ output_tokens: 2, entrypoint: 'sdk-ts', stop_reason: 'tool_use' }));
    for (const f of findings) {
      expect(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal', 'model_context_window_exceeded', 'other', 'unknown']).toContain(
        f.details.stop_reason,
      );
      // The canary files record `cli-<canary>`: reported as `other`, never as written.
      expect(['other', 'sdk-ts']).toContain(f.details.entrypoint);
    }
  });

  it('no canary anywhere in what leaves the scanner', () => {
    expect(JSON.stringify(findings, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(canary);
  });

  it('the JSON stop finder names offsets and token kinds only, and survives hostile nesting', () => {
    expect(jsonStop('{"a":1}')).toBeNull();
    expect(jsonStop('{"a":1,')).toEqual({ offset: 7, expected: 'key' });
    expect(jsonStop('{"a" 1}')).toEqual({ offset: 5, expected: 'colon' });
    expect(jsonStop('[1 2]')).toEqual({ offset: 3, expected: 'comma_or_close' });
    expect(jsonStop('{"a":tru}')).toEqual({ offset: 8, expected: 'literal' });
    expect(jsonStop('{"a":"\\q"}')).toEqual({ offset: 7, expected: 'escape' });
    expect(jsonStop('{"a":-}')).toEqual({ offset: 6, expected: 'digit' });
    expect(jsonStop('{} x')).toEqual({ offset: 3, expected: 'end_of_input' });
    expect(jsonStop('[]')).toBeNull();
    expect(jsonStop('['.repeat(1_000_000))).toEqual({ offset: 1_000_000, expected: 'value' });
    // Agrees with JSON.parse on what parses.
    for (const text of ['{"a":[1,{"b":null}],"c":"\\u00e9"}', '{"a":1}}', '0', '-0.5e+3', '01', '"x', '{"a":1 ,}'])
      expect(jsonStop(text) === null, text).toBe(
        (() => {
          try {
            JSON.parse(text);
            return true;
          } catch {
            return false;
          }
        })(),
      );
  });
});
