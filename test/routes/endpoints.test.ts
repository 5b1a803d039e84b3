import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoTruth, generateDemoCorpus } from '../../fixtures/demo-corpus';
import type { Finding, ModelRateRow, RateFigures, TimelineRow, VersionModelRow, VersionRateRow } from '../../shared/api-schemas';
import { DETECTOR_DEFINITIONS_VERSION, FINDING_CODES } from '../../shared/finding-codes';
import { HOST, type TestApp, TOKEN, testApp } from '../support/api-app';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-endpoints-'));
let truth: DemoTruth;
let t: TestApp;
const projects = join(tmp, 'corpus/projects');

beforeAll(async () => {
  truth = generateDemoCorpus({ out: join(tmp, 'corpus'), seed: 21, sessions: 80, canary: 'APICANARY' });
  t = await testApp([projects]);
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const count = (rows: RateFigures[], code: string) => sum(rows.map((r) => r.codes.find((c) => c.code === code)?.count ?? 0));
const messagesIn = (pred: (c: DemoTruth['cells'][number]) => boolean) => sum(truth.cells.filter(pred).map((c) => c.assistant_messages));

describe('GET endpoints return exact figures', () => {
  it('/api/health', async () => {
    expect((await t.get('/api/health')).json).toEqual({
      status: 'ok',
      tool_version: '9.9.9',
      detector_definitions_version: DETECTOR_DEFINITIONS_VERSION,
      demo: false,
      read_only: false,
      read_only_reason: null,
      index_id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it('/api/summary', async () => {
    const { json } = await t.get('/api/summary');
    expect(json).toMatchObject({
      folders: 1,
      folders_never_indexed: 0,
      files_failed: 1,
      files_in_progress: 1,
      assistant_messages: messagesIn(() => true),
      tool_use_turns: sum(truth.cells.map((c) => c.tool_use_turns)),
      first_day: truth.cells[0]!.day,
      last_day: truth.cells[truth.cells.length - 1]!.day,
    });
    const missing = json.codes.find((c: { code: string }) => c.code === 'missing_tool_use_block');
    expect(missing.count).toBe(truth.counted_by_code.missing_tool_use_block);
    // Over its own opportunities: messages with a recorded stop reason.
    expect(missing.opportunities).toBe(json.stop_known_messages);
    expect(missing.per_1000_opportunities.rate).toBeCloseTo((1000 * missing.count) / json.stop_known_messages, 3); // six significant digits
    expect(missing.per_1000_opportunities.low).toBeLessThan(missing.per_1000_opportunities.rate);
    expect(missing).not.toHaveProperty('per_1000_tool_use_turns');
  });

  it('/api/summary with filters', async () => {
    const { json } = await t.get('/api/summary?version=2.1.40,2.1.41&model=claude-opus-4-8&code=missing_tool_use_block');
    expect(json.assistant_messages).toBe(messagesIn((c) => ['2.1.40', '2.1.41'].includes(c.version) && c.model === 'claude-opus-4-8'));
    expect(json.codes.map((c: { code: string }) => c.code)).toEqual(['missing_tool_use_block']);
  });

  it('/api/timeline by day and week, with version markers', async () => {
    const days = (await t.get('/api/timeline')).json;
    expect(days.bucket).toBe('day');
    expect(days.rows.map((r: TimelineRow) => r.day)).toEqual([...new Set(truth.cells.map((c) => c.day))].sort());
    expect(sum(days.rows.map((r: TimelineRow) => r.assistant_messages))).toBe(messagesIn(() => true));
    expect(days.version_markers.map((m: { version: string }) => m.version)).toEqual(['2.1.36', '2.1.37', '2.1.38', '2.1.39', '2.1.40', '2.1.41', '2.1.42']);
    const firstDay40 = truth.cells
      .filter((c) => c.version === '2.1.40')
      .map((c) => c.day)
      .sort()[0];
    expect(days.version_markers.find((m: { version: string }) => m.version === '2.1.40').first_day).toBe(firstDay40);
    const weeks = (await t.get('/api/timeline?bucket=week&from=2026-05-04&to=2026-05-17')).json;
    expect(weeks.rows.map((r: TimelineRow) => r.week)).toEqual(['2026-05-04', '2026-05-11']);
    expect(weeks.rows.every((r: TimelineRow) => !('day' in r))).toBe(true);
    expect(sum(weeks.rows.map((r: TimelineRow) => r.assistant_messages))).toBe(messagesIn((c) => c.day >= '2026-05-04' && c.day <= '2026-05-17'));
  });

  it('/api/versions in semantic order and /api/models', async () => {
    const versions = (await t.get('/api/versions')).json.rows as VersionRateRow[];
    expect(versions.map((r) => r.version)).toEqual(['2.1.36', '2.1.37', '2.1.38', '2.1.39', '2.1.40', '2.1.41', '2.1.42']);
    for (const r of versions) expect(r.assistant_messages).toBe(messagesIn((c) => c.version === r.version));
    expect(count(versions.slice(0, 4), 'missing_tool_use_block')).toBe(0);
    expect(count(versions, 'missing_tool_use_block')).toBe(truth.counted_by_code.missing_tool_use_block);
    const models = (await t.get('/api/models?sidechain=all')).json.rows as ModelRateRow[];
    expect(models.map((r) => r.model)).toEqual(['claude-haiku-4-5', 'claude-opus-4-8', 'claude-sonnet-4-6']);
    for (const r of models) expect(r.assistant_messages).toBe(messagesIn((c) => c.model === r.model));
  });

  it('/api/version-models crosses versions and models exactly', async () => {
    const rows = (await t.get('/api/version-models')).json.rows as VersionModelRow[];
    expect(rows.length).toBe(new Set(truth.cells.map((c) => `${c.version} ${c.model}`)).size);
    for (const r of rows) expect(r.assistant_messages).toBe(messagesIn((c) => c.version === r.version && c.model === r.model));
    expect(rows[0]!.version).toBe('2.1.36');
  });

  it('/api/regressions gives a verdict per code, dimension and model, never naming a version before the regression', async () => {
    const { json } = await t.get('/api/regressions');
    expect(json.method).toContain('Bonferroni');
    const overall = json.verdicts.filter((v: { model: string | null; dimension: string }) => v.model === null && v.dimension === 'version');
    expect(overall.map((v: { code: string }) => v.code)).toEqual([...FINDING_CODES]);
    // This small corpus (about 200 tool-use turns per version) may not support a claim; whatever is said must be true.
    for (const v of json.verdicts) {
      if (v.status === 'regression' && v.dimension === 'version') expect(v.first_bad).toMatch(/^2\.1\.4[0-2]$/);
      if (v.status === 'regression' && v.dimension === 'day') expect(v.first_bad >= '2026-05-20').toBe(true);
      expect(v.summary.length).toBeGreaterThan(20);
    }
    const perModel = json.verdicts.filter((v: { model: string | null }) => v.model !== null);
    expect(new Set(perModel.map((v: { model: string }) => v.model))).toEqual(new Set(['claude-haiku-4-5', 'claude-opus-4-8', 'claude-sonnet-4-6']));
  });

  it('/api/compare puts two version ranges or day ranges side by side with a ratio and a p-value', async () => {
    const { json } = await t.get('/api/compare?a=2.1.36..2.1.39&b=2.1.40,2.1.41,2.1.42');
    expect(json.a).toMatchObject({ kind: 'versions', versions: ['2.1.36', '2.1.37', '2.1.38', '2.1.39'] });
    const turns = (pred: (c: DemoTruth['cells'][number]) => boolean) => sum(truth.cells.filter(pred).map((c) => c.tool_use_turns));
    expect(json.a.tool_use_turns).toBe(turns((c) => c.version <= '2.1.39'));
    expect(json.b.tool_use_turns).toBe(turns((c) => c.version >= '2.1.40'));
    const missing = json.rows.find((c: { code: string }) => c.code === 'missing_tool_use_block');
    expect(missing.a.count).toBe(0);
    expect(missing.b.count).toBe(truth.counted_by_code.missing_tool_use_block);
    expect(missing.p_value).toBeLessThan(0.001);
    expect(missing.rate_ratio.corrected).toBe(true);
    const days = (await t.get('/api/compare?a=2026-05-01..2026-05-20&b=2026-05-21..2026-06-30')).json;
    expect(days.a).toMatchObject({ kind: 'days', from: '2026-05-01', to: '2026-05-20' });
    expect(days.a.tool_use_turns).toBe(turns((c) => c.day <= '2026-05-20'));
    const bad = await t.get('/api/compare?a=9.9.9..9.9.10&b=2.1.40');
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('bad_side');
  });

  it('/api/findings pages through every copy once, sorted by day, with a cursor', async () => {
    const seen: Finding[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { json } = await t.get(`/api/findings?limit=7&sort=day_asc${cursor ? `&cursor=${cursor}` : ''}`);
      expect(json.total).toBe(truth.findings.length);
      seen.push(...json.rows);
      cursor = json.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(truth.findings.length / 7));
    expect(new Set(seen.map((f) => f.id)).size).toBe(truth.findings.length);
    const days = seen.map((f) => f.day ?? '');
    expect(days).toEqual([...days].sort());
    expect(seen.filter((f) => !f.counted).length).toBe(truth.findings.length - sum(Object.values(truth.counted_by_code)));
    expect(seen[0]).toMatchObject({
      folder: 'projects',
      folder_id: 1,
      id: expect.stringMatching(/^[0-9]+-[0-9a-f]{16}$/),
      lines: expect.any(Array),
      evidence_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const desc = (await t.get('/api/findings?code=empty_tool_input_with_error_result')).json;
    expect(desc.rows.every((f: Finding) => f.code === 'empty_tool_input_with_error_result')).toBe(true);
    expect(desc.rows.map((f: Finding) => f.day)).toEqual(
      desc.rows
        .map((f: Finding) => f.day)
        .sort()
        .reverse(),
    );
  });

  it('/api/findings refuses a forged cursor', async () => {
    const r = await t.get('/api/findings?cursor=bm90LWEtY3Vyc29y');
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('bad_cursor');
  });

  it('/api/files lists failed and in-progress files with code and line', async () => {
    const { json } = await t.get('/api/files');
    expect(
      json.rows.map((f: { file: string; status: string; error_code: string | null; error_line: number | null }) => [
        f.file,
        f.status,
        f.error_code,
        f.error_line,
      ]),
    ).toEqual([
      [truth.failed_files[0]!.file, 'failed', 'malformed_json', 2],
      [truth.in_progress_files[0]!, 'in_progress', null, null],
    ]);
    expect((await t.get('/api/files?status=failed')).json.rows).toHaveLength(1);
  });

  it('/api/folders shows the owner the path and counts', async () => {
    const { json } = await t.get('/api/folders');
    const files = readdirSync(projects, { recursive: true }).filter((name) => String(name).endsWith('.jsonl')).length;
    expect(json.rows).toEqual([expect.objectContaining({ id: 1, label: 'projects', path: projects, files, files_failed: 1, files_in_progress: 1 })]);
  });
});

describe('folders and index runs', () => {
  const post = (url: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: { host: HOST, 'x-tcf-token': TOKEN }, ...(payload ? { payload } : {}) });

  it('adds a folder, indexes it (one index run at a time: a second start gets 409), then removes it and its rows', async () => {
    const copy = join(tmp, 'copy/projects');
    cpSync(projects, copy, { recursive: true });
    const added = await post('/api/folders', { path: copy, label: 'second' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ label: 'second', path: copy, last_indexed_at: null, files: 0 });
    expect((await t.get('/api/summary')).json.folders_never_indexed).toBe(1);

    const [first, second] = [await post('/api/index-runs', { folder_id: added.json().id }), await post('/api/index-runs', {})];
    expect(first.statusCode).toBe(202);
    expect(first.json()).toMatchObject({ state: 'running', folder_id: added.json().id });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('index_running');
    const deleteWhileRunning = await t.app.inject({ method: 'DELETE', url: `/api/folders/${added.json().id}`, headers: { host: HOST, 'x-tcf-token': TOKEN } });
    expect(deleteWhileRunning.statusCode).toBe(409);
    let state = (await t.get('/api/index-runs/current')).json;
    while (state.state === 'running') {
      await new Promise((r) => setTimeout(r, 20));
      state = (await t.get('/api/index-runs/current')).json;
    }
    expect(state).toMatchObject({ state: 'done', folder_id: added.json().id, files_done: state.files_total, files_failed: 1 });
    expect(state.files_total).toBeGreaterThan(100);

    const both = (await t.get('/api/summary')).json;
    const one = (await t.get('/api/summary?folder=1')).json;
    expect(both.assistant_messages).toBe(2 * one.assistant_messages); // dedup is per folder: two folders count twice

    // Removed by default with its history kept (issue 27): still counted, its files gone; forget=true drops it.
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/folders/${added.json().id}`, headers: { host: HOST, 'x-tcf-token': TOKEN } });
    expect(removed.statusCode).toBe(204);
    expect((await t.get('/api/summary')).json.assistant_messages).toBe(both.assistant_messages);
    const kept = (await t.get('/api/folders')).json.rows.find((r: { id: number }) => r.id === added.json().id);
    expect(kept).toMatchObject({ removed_at: expect.stringMatching(/^\d{4}-/), files_gone: expect.any(Number) });
    expect(kept.files_gone).toBeGreaterThanOrEqual(100);
    const forgotten = await t.app.inject({
      method: 'DELETE',
      url: `/api/folders/${added.json().id}?forget=true`,
      headers: { host: HOST, 'x-tcf-token': TOKEN },
    });
    expect(forgotten.statusCode).toBe(204);
    expect((await t.get('/api/summary')).json.assistant_messages).toBe(one.assistant_messages);
    expect((await t.get('/api/findings?limit=500')).json.total).toBe(truth.findings.length);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/folders/${added.json().id}?forget=true`, headers: { host: HOST, 'x-tcf-token': TOKEN } });
    expect(again.statusCode).toBe(404);
  });

  it('names the folder folder_id: the store name root_id is refused, an unknown folder is 404', async () => {
    const old = await post('/api/index-runs', { root_id: 1 });
    expect(old.statusCode).toBe(400);
    expect(old.json().error.code).toBe('invalid_request');
    const missing = await post('/api/index-runs', { folder_id: 999 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toEqual({ status_code: 404, code: 'not_found', message: 'no such folder' });
    expect((await t.get('/api/index-runs/current')).json.state).not.toBe('running');
  });

  it('a POST with no body indexes every folder', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/index-runs', headers: { host: HOST, 'x-tcf-token': TOKEN } });
    expect(r.statusCode).toBe(202);
    expect(r.json().folder_id).toBeNull();
    while ((await t.get('/api/index-runs/current')).json.state === 'running') await new Promise((res) => setTimeout(res, 20));
  });
});
