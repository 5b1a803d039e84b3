import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeModelId } from '../../shared/metadata-patterns';
import { isModelId, MODEL_LIST_PATTERN } from '../../shared/model-id';
import { type TestApp, testApp } from '../support/api-app';
import { fixturesRoot } from '../support/detector-fixtures';
import { runCli } from '../support/run-cli';

/**
 * Issue 34: one definition of a model id (shared/model-id.ts) for what the scanner stores, the API's
 * `model=`, the CLI's `--model` and the page, so ids real agents write can be filtered on end to end:
 * Ollama's `qwen3-coder:30b` through OpenCode (an OpenCode export of it) and an upper-case `Kimi-K2` (a
 * Codex rollout of it), each scanned from a file, stored, and selected by the API and the CLI.
 */
const OLLAMA = 'qwen3-coder:30b';
const UPPER = 'Kimi-K2';
const tmp = mkdtempSync(join(tmpdir(), 'tcf-model-ids-'));
const folder = join(tmp, 'agents');
const db = join(tmp, 'cli.db');

let t: TestApp;
beforeAll(async () => {
  mkdirSync(folder);
  const opencode = readFileSync(join(fixturesRoot, 'agents', 'opencode-invalid-call.jsonl'), 'utf8')
    .replaceAll('"modelID": "kimi-k2"', `"modelID": "${OLLAMA}"`)
    .replaceAll('"providerID": "nvidia"', '"providerID": "ollama"');
  expect(opencode).toContain(OLLAMA);
  writeFileSync(join(folder, 'opencode-ollama.jsonl'), opencode);
  const codex = readFileSync(join(fixturesRoot, 'agents', 'codex-orphan-mid-session.jsonl'), 'utf8').replaceAll('"model":"gpt-5.4"', `"model":"${UPPER}"`);
  expect(codex).toContain(UPPER);
  writeFileSync(join(folder, 'codex-upper.jsonl'), codex);
  t = await testApp([folder]);
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('one model id, from the scanner to every filter', () => {
  it('the scanner keeps exactly what the filter list accepts', () => {
    const list = new RegExp(MODEL_LIST_PATTERN, 'u');
    const ids = [OLLAMA, UPPER, 'GLM-4.6', 'openrouter/qwen/qwen3-coder', 'claude-opus-4-1@20250805', 'anthropic.claude-3-5-sonnet-20241022-v2:0'];
    const notIds = ['', 'a b', 'a,b', '/a', 'a/', 'a//b', '-a', '<synthetic>', 'a"b', 'a\tb', 'é', 'model CANARY0123456789AB', 'x'.repeat(129)];
    for (const id of ids) expect([id, safeModelId(id), list.test(id)]).toEqual([id, id, true]);
    for (const bad of notIds)
      expect([bad, safeModelId(bad), isModelId(bad), bad.includes(',') || list.test(bad)]).toEqual([bad, null, false, bad.includes(',')]);
    expect(list.test(`${OLLAMA},${UPPER}`)).toBe(true);
  });

  it('the API lists and filters by `qwen3-coder:30b` and `Kimi-K2`', async () => {
    const models = (await t.get('/api/models')).json.rows.map((r: { model: string | null }) => r.model);
    expect(models).toEqual(expect.arrayContaining([OLLAMA, UPPER]));
    const ollama = await t.get(`/api/findings?model=${encodeURIComponent(OLLAMA)}`);
    expect(ollama.status).toBe(200);
    expect(ollama.json.rows.map((f: { code: string; agent: string; model: string }) => [f.code, f.agent, f.model])).toEqual([
      ['unparseable_tool_input', 'opencode', OLLAMA],
    ]);
    const upper = await t.get(`/api/findings?model=${UPPER}`);
    expect(upper.status).toBe(200);
    expect(upper.json.rows.map((f: { code: string; agent: string; model: string }) => [f.code, f.agent, f.model])).toEqual([
      ['orphan_tool_use', 'codex', UPPER],
    ]);
    const versions = await t.get(`/api/versions?model=${encodeURIComponent(`${OLLAMA},${UPPER}`)}`);
    expect(versions.status).toBe(200);
    expect(versions.json.rows.map((r: { agent: string; version: string }) => `${r.agent} ${r.version}`)).toEqual(['codex 0.146.0', 'opencode 1.14.28']);
    const one = await t.get(`/api/timeline?model=${encodeURIComponent(OLLAMA)}`);
    expect(one.json.rows.reduce((n: number, r: { assistant_messages: number }) => n + r.assistant_messages, 0)).toBeGreaterThan(0);
  });

  it('the CLI indexes the same files and filters by both ids', () => {
    expect(runCli(['index', folder, '--db', db]).status).toBe(0);
    for (const [model, version] of [
      [OLLAMA, '1.14.28'],
      [UPPER, '0.146.0'],
    ]) {
      const run = runCli(['report', '--json', '--db', db, '--model', model!]);
      expect(run.status, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as { by_version: Array<{ agent: string; key: string; assistant_messages: number }> };
      expect(report.by_version.map((r) => `${r.agent} ${r.key}`)).toEqual([`${model === OLLAMA ? 'opencode' : 'codex'} ${version}`]);
      expect(report.by_version[0]!.assistant_messages).toBeGreaterThan(0);
    }
    const bad = runCli(['report', '--db', db, '--model', 'qwen3 coder']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--model "qwen3 coder" is malformed: expected a model id/);
  });
});
