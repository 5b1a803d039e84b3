import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../support/api-app';
import { fixturesRoot } from '../support/detector-fixtures';
import { runCli } from '../support/run-cli';

/**
 * Issue 34, point 2: versions are per agent. Codex rollouts rewritten to call themselves `2.1.209`, the
 * version the Claude Code detector fixtures record, sit beside those fixtures: every per-version row of
 * the API names its agent, the shared version string gives one row per agent, and each agent's row holds
 * exactly what `agent=` selects for it (nothing of the other agent mixed in).
 */
const SHARED = '2.1.209';
const tmp = mkdtempSync(join(tmpdir(), 'tcf-agent-versions-'));
const folder = join(tmp, 'mixed');

let t: TestApp;
beforeAll(async () => {
  cpSync(join(fixturesRoot, 'detectors', 'orphan_tool_use'), join(folder, 'claude'), { recursive: true });
  rmSync(join(folder, 'claude', 'expected.json'));
  for (const name of readdirSync(join(fixturesRoot, 'agents')).filter((n) => n.startsWith('codex-'))) {
    const text = readFileSync(join(fixturesRoot, 'agents', name), 'utf8').replace(/"cli_version":"[^"]*"/, `"cli_version":"${SHARED}"`);
    expect(text).toContain(`"cli_version":"${SHARED}"`);
    writeFileSync(join(folder, name), text);
  }
  t = await testApp([folder]);
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(tmp, { recursive: true, force: true });
});

type Row = { agent: string; version: string | null; [k: string]: unknown };

async function rows(path: string): Promise<Row[]> {
  const r = await t.get(path);
  expect(r.status, path).toBe(200);
  return r.json.rows as Row[];
}

const pairs = (rs: Row[]) => rs.map((r) => `${r.agent} ${r.version}`);

describe('the same version string under two agents stays two rows', () => {
  it('/api/versions: one row per agent and version, each equal to its own agent= answer', async () => {
    const all = await rows('/api/versions');
    expect(all.every((r) => typeof r.agent === 'string')).toBe(true);
    const shared = all.filter((r) => r.version === SHARED);
    expect(shared.map((r) => r.agent)).toEqual(['claude-code', 'codex']);
    // No (agent, version) twice.
    expect(new Set(pairs(all)).size).toBe(all.length);
    for (const agent of ['claude-code', 'codex']) {
      const own = await rows(`/api/versions?agent=${agent}`);
      expect(own.every((r) => r.agent === agent)).toBe(true);
      expect(all.filter((r) => r.agent === agent)).toEqual(own);
    }
    const codex = shared.find((r) => r.agent === 'codex')!;
    const claude = shared.find((r) => r.agent === 'claude-code')!;
    // Counted apart, by another route that does not split by agent: per model, within the shared version.
    const messages = async (q: string) => (await rows(`/api/models?version=${SHARED}${q}`)).reduce((n, r) => n + (r.assistant_messages as number), 0);
    expect(codex.assistant_messages).toBeGreaterThan(0);
    expect(codex.assistant_messages).toBe(await messages('&agent=codex'));
    expect(claude.assistant_messages).toBe(await messages('&agent=claude-code'));
    expect((codex.assistant_messages as number) + (claude.assistant_messages as number)).toBe(await messages(''));
    const orphans = (r: Row) => (r.codes as { code: string; count: number }[]).find((c) => c.code === 'orphan_tool_use')?.count ?? 0;
    expect(orphans(codex)).toBe(1);
    expect(orphans(claude)).toBeGreaterThanOrEqual(1);
  });

  it('/api/version-models and /api/version-efforts: the agent is part of the key', async () => {
    const vm = await rows('/api/version-models');
    expect(new Set(vm.map((r) => `${r.agent} ${r.version} ${r.model}`)).size).toBe(vm.length);
    expect(vm.filter((r) => r.version === SHARED && r.agent === 'codex').map((r) => r.model)).toEqual(['gpt-5.4']);
    expect(vm.filter((r) => r.version === SHARED && r.agent === 'claude-code').map((r) => r.model)).not.toContain('gpt-5.4');
    expect(await rows('/api/version-models?agent=codex')).toEqual(vm.filter((r) => r.agent === 'codex'));
    const ve = await rows('/api/version-efforts');
    expect(new Set(ve.map((r) => `${r.agent} ${r.version} ${r.effort}`)).size).toBe(ve.length);
    expect(ve.filter((r) => r.version === SHARED).map((r) => r.agent)).toEqual(expect.arrayContaining(['claude-code', 'codex']));
    expect(await rows('/api/version-efforts?agent=claude-code')).toEqual(ve.filter((r) => r.agent === 'claude-code'));
  });

  it('/api/diagnostics: per agent and version, filtered by agent=', async () => {
    const all = await rows('/api/diagnostics');
    expect(new Set(pairs(all)).size).toBe(all.length);
    expect(all.filter((r) => r.version === SHARED).map((r) => r.agent)).toEqual(['claude-code', 'codex']);
    expect(await rows('/api/diagnostics?agent=codex')).toEqual(all.filter((r) => r.agent === 'codex'));
    expect((await t.get('/api/diagnostics?agent=Codex')).status).toBe(400);
  });

  it('version markers, turn ends and session ends per version name their agent', async () => {
    const timeline = await t.get('/api/timeline');
    expect(timeline.status).toBe(200);
    const markers = timeline.json.version_markers as Row[];
    expect(markers.filter((m) => m.version === SHARED).map((m) => m.agent)).toEqual(['claude-code', 'codex']);
    for (const path of ['/api/turn-ends?dimension=version', '/api/session-ends?dimension=version&sidechain=all']) {
      const rs = await rows(path);
      expect(new Set(pairs(rs)).size, path).toBe(rs.length);
      expect(
        rs.filter((r) => r.version === SHARED).map((r) => r.agent),
        path,
      ).toEqual(['claude-code', 'codex']);
    }
    // /api/compare takes agent=: Codex wrote no 2.1.160, so that side is unknown for it.
    expect((await t.get(`/api/compare?a=2.1.160&b=${SHARED}`)).status).toBe(200);
    expect((await t.get(`/api/compare?a=2.1.160&b=${SHARED}&agent=claude-code`)).status).toBe(200);
    const codexOnly = await t.get(`/api/compare?a=2.1.160&b=${SHARED}&agent=codex`);
    expect([codexOnly.status, codexOnly.json.error?.code]).toEqual([400, 'bad_side']);
    // The CLI's report: its version rows are per agent too, in --json and in the text.
    const db = join(tmp, 'cli.db');
    expect(runCli(['index', folder, '--db', db]).status).toBe(0);
    const json = JSON.parse(runCli(['report', '--json', '--db', db]).stdout) as { by_version: Array<{ agent: string; key: string | null }> };
    expect(json.by_version.filter((r) => r.key === SHARED).map((r) => r.agent)).toEqual(['claude-code', 'codex']);
    const text = runCli(['report', '--db', db], { env: { COLUMNS: '200' } }).stdout;
    expect(text).toContain('Per agent version');
    expect(text).toMatch(new RegExp(`codex ${SHARED.replaceAll('.', '\\.')}`));
    // Other dimensions are not split by agent.
    const byModel = await rows('/api/turn-ends?dimension=model');
    expect(byModel.every((r) => r.agent === undefined)).toBe(true);
  });
});
