import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScan } from '../../server/cli/scan-command';
import { analyseFile } from '../../server/detect/analyse-file';
import { describeWithShared, sharedDir } from '../support/shared-material';

/** Agents whose adapters this suite holds to expect.json (counts, version, findings); others are another adapter's tests. */
const COVERED = new Set(['claude-code', 'codex', 'opencode']);

interface Expected {
  agent: string;
  version: string | null;
  model_messages: number;
  tool_calls: number;
  tool_results: number;
  findings: Array<{ code: string; line: number }>;
  refused?: string;
}

describeWithShared('scan on real transcripts of other agents (../shared/corpus/agents)', () => {
  const corpus = join(sharedDir, 'corpus/agents');
  const files: Record<string, Expected> = JSON.parse(readFileSync(join(corpus, 'expect.json'), 'utf8')).files;
  const covered = Object.entries(files).filter(([, e]) => COVERED.has(e.agent) && !e.refused);
  const report = runScan([corpus]);

  it('covers Codex and OpenCode files of the corpus', () => {
    expect(covered.filter(([, e]) => e.agent === 'codex').length).toBeGreaterThanOrEqual(8);
    expect(covered.filter(([, e]) => e.agent === 'opencode').length).toBeGreaterThanOrEqual(8);
  });

  describe.each(covered)('%s', (name, e) => {
    const analysis = analyseFile(join(corpus, name));
    it('is read, as its agent and version, with the counts the file holds and exactly the expected findings', () => {
      expect(analysis.status).toBe('ok');
      if (analysis.status !== 'ok') return;
      expect({ agent: analysis.agent, version: analysis.agentVersion, ...analysis.counts }).toEqual({
        agent: e.agent,
        version: e.version,
        modelMessages: e.model_messages,
        toolCalls: e.tool_calls,
        toolResults: e.tool_results,
      });
      expect(analysis.findings.map((f) => ({ code: f.code, line: f.lines[0], agent: f.agent }))).toEqual(
        e.findings.map((x) => ({ code: x.code, line: x.line, agent: e.agent })),
      );
    });
  });

  it('refuses the files to be refused, with their code (or, for a format no reader reads, `unknown_format` with its hint)', () => {
    for (const [name, e] of Object.entries(files)) {
      if (!e.refused) continue;
      const error = report.errors.find((x) => x.file === name);
      expect(error?.code === e.refused || (error?.code === 'unknown_format' && error.hint === e.refused), name).toBe(true);
    }
  });

  it('names each finding agent in scan --json, and fails no covered file', () => {
    expect(report.findings.map((f) => `${f.agent} ${f.code} ${f.file}:${f.lines[0]}`).sort()).toEqual(
      Object.entries(files)
        .flatMap(([name, e]) => e.findings.map((x) => `${e.agent} ${x.code} ${name}:${x.line}`))
        .sort(),
    );
    const failed = new Set(report.errors.map((x) => x.file));
    expect(covered.filter(([name]) => failed.has(name))).toEqual([]);
  });
});
