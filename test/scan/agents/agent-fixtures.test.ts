import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScan } from '../../../server/cli/scan-command';
import { analyseFile } from '../../../server/detect/analyse-file';
import { fixturesRoot } from '../../support/detector-fixtures';

/**
 * Issue 34: one fixture set per adapter (fixtures/agents/, built by fixtures/make-agent-fixtures.mjs, no
 * ../shared): each file read as its agent and version, with the counts the generator wrote (counted as it
 * wrote the rows, not by the scanner), and exactly its findings: the Codex candidate orphan and none of its
 * lookalikes (tail, turn_aborted, compaction); the OpenCode `invalid` rewrite at its tool part's opening
 * brace, and no finding from an aborted call with {}, a denial, a schema refusal or a pending call.
 */
const folder = join(fixturesRoot, 'agents');
interface Expected {
  agent: string;
  version: string | null;
  modelMessages: number;
  toolCalls: number;
  toolResults: number;
  findings: Array<{ code: string; line: number }>;
}
const EXPECTED: Record<string, Expected> = JSON.parse(readFileSync(join(folder, 'expected.json'), 'utf8'));

describe('agent fixtures', () => {
  it('cover Codex (a finding and each lookalike) and OpenCode (a finding and a pending call)', () => {
    const names = Object.keys(EXPECTED);
    expect(names.filter((n) => EXPECTED[n]!.agent === 'codex').length).toBeGreaterThanOrEqual(4);
    expect(names.filter((n) => EXPECTED[n]!.agent === 'opencode').length).toBeGreaterThanOrEqual(2);
    expect(
      Object.values(EXPECTED)
        .flatMap((e) => e.findings.map((f) => `${e.agent} ${f.code}`))
        .sort(),
    ).toEqual(['codex orphan_tool_use', 'opencode unparseable_tool_input']);
  });

  it.each(Object.entries(EXPECTED))('%s', (name, e) => {
    const analysis = analyseFile(join(folder, name));
    expect(analysis.status).toBe('ok');
    if (analysis.status !== 'ok') return;
    expect({ agent: analysis.agent, version: analysis.agentVersion, ...analysis.counts }).toEqual({
      agent: e.agent,
      version: e.version,
      modelMessages: e.modelMessages,
      toolCalls: e.toolCalls,
      toolResults: e.toolResults,
    });
    expect(analysis.findings.map((f) => ({ code: f.code, line: f.lines[0], agent: f.agent }))).toEqual(
      e.findings.map((f) => ({ code: f.code, line: f.line, agent: e.agent })),
    );
  });

  it('scan --json names every finding agent and counts files read per agent', () => {
    const report = runScan([folder]);
    expect(report.errors).toEqual([]);
    expect(report.findings.map((f) => [f.agent, f.code, f.file, f.lines[0]])).toEqual(
      Object.entries(EXPECTED)
        .flatMap(([name, e]) => e.findings.map((f) => [e.agent, f.code, name, f.line]))
        .sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
    );
    expect(report.summary.files_read_by_agent).toEqual({ codex: 4, opencode: 2 });
  });
});
