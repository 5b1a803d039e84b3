import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { type TestApp, testApp } from '../support/api-app';
import { fixturesRoot } from '../support/detector-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await testApp([join(fixturesRoot, 'detectors/missing_tool_use_block')]);
});
afterAll(() => t.close());

describe('cached GET responses never go stale', () => {
  it('serves a repeat from the cache, and fresh figures after another process indexes into the same file', async () => {
    const first = await t.get('/api/summary');
    const again = await t.get('/api/summary');
    expect(again.headers['x-cache']).toBe('hit');
    expect(again.body).toBe(first.body);

    const other = openDatabase(join(t.dir, 'index.db')); // as a CLI `index` run would
    addRoot(other, join(fixturesRoot, 'demo/projects'));
    await indexDatabase(other, { analyser: 'inline' });
    other.close();

    const after = await t.get('/api/summary');
    expect(after.headers['x-cache']).toBeUndefined();
    expect(after.json.assistant_messages).toBeGreaterThan(first.json.assistant_messages);
    expect(after.json.folders).toBe(2);
  });
});

describe('caching is declared per route (config: { cache: true })', () => {
  const twice = async (url: string) => {
    await t.get(url);
    return (await t.get(url)).headers['x-cache'];
  };

  it.each([
    '/api/summary?code=missing_tool_use_block',
    '/api/timeline',
    '/api/versions',
    '/api/version-models',
    '/api/models',
    '/api/findings',
    '/api/files',
    '/api/diagnostics',
    '/api/regressions',
    '/api/session-ends',
    '/api/export',
  ])('%s is cached', async (url) => {
    expect(await twice(url)).toBe('hit');
  });

  it('the export is cached as it was sent: its Markdown stays Markdown, its JSON JSON', async () => {
    const md = await t.get('/api/export?format=md');
    const again = await t.get('/api/export?format=md');
    expect(again.headers['x-cache']).toBe('hit');
    expect(again.headers['content-type']).toBe(md.headers['content-type']);
    expect(again.headers['content-type']).toMatch(/^text\/markdown/);
    expect(again.body).toBe(md.body);
    await t.get('/api/export?format=json');
    const json = await t.get('/api/export?format=json');
    expect(json.headers['x-cache']).toBe('hit');
    expect(json.headers['content-type']).toMatch(/^application\/json/);
  });

  it('one finding (its strip re-reads the file), the folders (with paths), health and the index run are not', async () => {
    const id = (await t.get('/api/findings')).json.rows[0].id as string;
    for (const url of [`/api/findings/${id}`, '/api/folders', '/api/health', '/api/index-runs/current']) {
      expect(await twice(url), url).toBeUndefined();
    }
  });
});
