import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../support/api-app';
import { fixturesRoot } from '../support/detector-fixtures';
import { runCli } from '../support/run-cli';

/**
 * Issue 34: the agent as a dimension through the index and the API, over the agent fixtures (fixtures/agents/)
 * and one Claude Code detector fixture folder: /api/agents sums each agent's files, versions, counts and
 * findings as the fixtures' generator counted them; agent= filters findings, summaries and rates; versions never
 * mix across agents.
 */
const agents = join(fixturesRoot, 'agents');
const claude = join(fixturesRoot, 'detectors', 'orphan_tool_use');
type Expected = Record<string, { agent: string; version: string | null; modelMessages: number; toolCalls: number; toolResults: number; findings: unknown[] }>;
const EXPECTED: Expected = JSON.parse(readFileSync(join(agents, 'expected.json'), 'utf8'));

let t: TestApp;
beforeAll(async () => {
  t = await testApp([agents, claude]);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('GET /api/agents', () => {
  it('one row per agent, Claude Code first, with the counts the files hold and versions per agent', async () => {
    const r = await t.get('/api/agents');
    expect(r.status).toBe(200);
    expect(r.json.rows.map((row: { agent: string }) => row.agent)).toEqual(['claude-code', 'codex', 'opencode']);
    for (const agent of ['codex', 'opencode']) {
      const files = Object.values(EXPECTED).filter((e) => e.agent === agent);
      const row = r.json.rows.find((x: { agent: string }) => x.agent === agent);
      expect(row, agent).toMatchObject({
        files: files.length,
        model_messages: files.reduce((n, e) => n + e.modelMessages, 0),
        tool_calls: files.reduce((n, e) => n + e.toolCalls, 0),
        tool_results: files.reduce((n, e) => n + e.toolResults, 0),
        findings: files.reduce((n, e) => n + e.findings.length, 0),
      });
      expect(row.versions.map((v: { version: string | null }) => v.version).sort(), agent).toEqual([...new Set(files.map((e) => e.version))].sort());
    }
    const codexVersions = r.json.rows.find((x: { agent: string }) => x.agent === 'codex').versions.map((v: { version: string }) => v.version);
    const claudeVersions = r.json.rows.find((x: { agent: string }) => x.agent === 'claude-code').versions.map((v: { version: string }) => v.version);
    expect(codexVersions.filter((v: string) => claudeVersions.includes(v))).toEqual([]);
  });

  it('agent= filters findings, the summary and the version rates (versions of one agent only)', async () => {
    const codex = await t.get('/api/findings?agent=codex');
    expect(codex.status).toBe(200);
    expect(codex.json.total).toBe(1);
    expect(codex.json.rows.map((f: { code: string }) => f.code)).toEqual(['orphan_tool_use']);
    const both = (await t.get('/api/findings?agent=codex,opencode')).json.total;
    expect(both).toBe(2);
    const all = (await t.get('/api/findings')).json.total;
    expect(all).toBeGreaterThan(both);
    const rates = await t.get('/api/versions?agent=opencode');
    expect(rates.status).toBe(200);
    expect(rates.json.rows.map((row: { version: string | null }) => row.version)).toEqual(['1.14.28']);
    expect((await t.get('/api/findings?agent=Codex')).status).toBe(400);
  });

  it('report --agent reads one agent; an unknown agent is a usage error', () => {
    const dbPath = join(t.dir, 'index.db');
    t.db.pragma('wal_checkpoint(TRUNCATE)');
    const json = runCli(['report', '--db', dbPath, '--json', '--agent', 'codex']);
    expect(json.status).toBe(0);
    expect(json.stdout).not.toContain('2.1.');
    expect(json.stdout).toContain('0.146.0');
    const bad = runCli(['report', '--db', dbPath, '--agent', 'cursor']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--agent');
  });
});
