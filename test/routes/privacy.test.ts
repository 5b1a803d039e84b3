import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { type TestApp, testApp } from '../support/api-app';
import { newCanary, writeCanaryTranscripts } from '../support/canary-transcripts';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-apipriv-'));
const canary = newCanary();
const pathMarker = `privatefolder${canary.toLowerCase()}`;
let t: TestApp;
let roots: string[];

beforeAll(async () => {
  const base = join(tmp, pathMarker);
  mkdirSync(base);
  const transcripts = writeCanaryTranscripts(base, canary, { canaryInNames: false });
  generateDemoCorpus({ out: join(base, 'demo'), seed: 4, sessions: 25, canary });
  roots = [transcripts, join(base, 'demo/projects')];
  t = await testApp(roots);
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

const FILTERS = [
  '',
  '?code=missing_tool_use_block',
  '?version=2.1.40,2.1.41',
  '?model=claude-opus-4-8',
  '?effort=xhigh,unknown',
  '?from=2026-05-01&to=2026-06-30',
  '?folder=1',
  '?sidechain=sidechain',
  '?sidechain=main',
  '?agent=claude-code',
];
const ENDPOINTS = [
  '/api/health',
  '/api/summary',
  '/api/timeline',
  '/api/timeline?bucket=week',
  '/api/versions',
  '/api/version-models',
  '/api/models',
  '/api/findings',
  '/api/findings?sort=day_asc&limit=500',
  '/api/files',
  '/api/files?status=failed',
  '/api/files?status=gone',
  '/api/files?status=salvaged',
  '/api/diagnostics',
  '/api/index-runs/current',
  '/api/regressions',
  '/api/compare?a=2.1.36..2.1.39&b=2.1.40..2.1.42',
  '/api/compare?a=2026-05-01..2026-05-20&b=2026-05-21..2026-07-01',
  '/api/session-ends',
  '/api/session-ends?dimension=model',
  '/api/session-ends?dimension=day',
  '/api/turn-ends',
  '/api/turn-ends?dimension=model&turns=last',
  '/api/turn-ends?dimension=day',
  '/api/turn-ends?dimension=effort',
  '/api/efforts',
  '/api/version-efforts',
];

describe('no GET endpoint carries payload or an absolute path', () => {
  it('the index really holds findings and failures from the canary corpus', async () => {
    const summary = (await t.get('/api/summary')).json;
    expect(summary.files_failed).toBeGreaterThan(0);
    for (const code of ['missing_tool_use_block', 'empty_tool_input_with_error_result', 'malformed_retry_injected']) {
      expect(summary.codes.find((c: { code: string }) => c.code === code).count).toBeGreaterThan(0);
    }
  });

  it.each(ENDPOINTS.flatMap((e) => FILTERS.map((f) => (e.includes('?') ? `${e}${f.replace('?', '&')}` : `${e}${f}`))))('%s', async (url) => {
    const r = await t.get(url);
    // A comparison side that names no indexed version (after a filter) is a 400; its body is checked all the same.
    expect(url.startsWith('/api/compare') ? [200, 400] : [200]).toContain(r.status);
    expect(r.body).not.toContain(canary);
    expect(r.body.toLowerCase()).not.toContain(pathMarker);
    expect(r.body).not.toContain(tmp);
  });

  it('only /api/folders shows the owner the absolute path, and never the canary', async () => {
    const r = await t.get('/api/folders');
    expect(r.body).toContain(pathMarker);
    expect(r.body).not.toContain(canary);
  });
});

describe('salvaged files carry no payload either', () => {
  it('with salvage, /api/files?status=salvaged, the summary and the evidence report name codes and lines only', async () => {
    // Last in this file: it re-reads the canary folder's damaged files in salvage mode.
    await indexDatabase(t.db, { analyser: 'inline', salvage: true });
    const salvaged = await t.get('/api/files?status=salvaged');
    expect(salvaged.status).toBe(200);
    expect(salvaged.json.rows.length).toBeGreaterThan(0);
    expect((await t.get('/api/summary')).json.files_salvaged).toBe(salvaged.json.rows.length);
    for (const url of ['/api/files?status=salvaged', '/api/summary', '/api/export?format=md&files=keep', '/api/export?format=json&files=keep']) {
      const r = await t.get(url);
      expect(r.status, url).toBe(200);
      expect(r.body, url).not.toContain(canary);
      expect(r.body.toLowerCase(), url).not.toContain(pathMarker);
    }
  });
});
