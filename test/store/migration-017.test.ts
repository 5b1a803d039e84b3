import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { buildApp } from '../../server/app/build-app';
import { indexDatabase } from '../../server/app/index-database';
import { projectRoot } from '../../server/build/project-root';
import type { App } from '../../server/http/types';
import { type Db, latestSchemaVersion, openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { HOST, TOKEN } from '../support/api-app';
import { dumpIndex } from '../support/db-dump';

/**
 * Migration 017 (gone files, removed folders keeping their history) on an existing user's database: a database at
 * schema 016 holding a real index (a fresh index with 017's two columns and index taken out again, as 016 had
 * it) is upgraded in place by openDatabase: every row kept, every API answer the same as the fresh index's, no
 * file read again, and nothing gone.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-mig017-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const corpus = join(tmp, 'corpus/projects');

async function answers(db: Db): Promise<Map<string, unknown>> {
  const app: App = await buildApp({ db, token: TOKEN, allowedHosts: [HOST], demo: false, toolVersion: '9.9.9', analyser: 'inline' });
  try {
    const out = new Map<string, unknown>();
    for (const url of [
      '/api/summary',
      '/api/files',
      '/api/files?status=gone',
      '/api/versions',
      '/api/timeline',
      '/api/regressions',
      '/api/findings?limit=500',
    ]) {
      const r = await app.inject({ url, headers: { host: HOST } });
      expect(r.statusCode, url).toBe(200);
      out.set(url, r.json());
    }
    return out;
  } finally {
    await app.close();
  }
}

describe('migration 017 on an existing index', () => {
  let fresh: Db;
  let upgraded: Db;
  beforeAll(async () => {
    generateDemoCorpus({ out: join(tmp, 'corpus'), seed: 17, sessions: 30, canary: 'MIG017CANARY' });
    fresh = openDatabase(join(tmp, 'fresh.db'));
    addRoot(fresh, corpus);
    await indexDatabase(fresh, { analyser: 'inline' });
    fresh.close();
    // The same database as 016 left it.
    const raw = new Database(join(tmp, 'fresh.db'));
    raw.prepare('VACUUM INTO ?').run(join(tmp, 'old.db'));
    raw.close();
    const old = new Database(join(tmp, 'old.db'));
    old.exec('DROP INDEX files_gone_by_root; ALTER TABLE files DROP COLUMN gone_ms; ALTER TABLE roots DROP COLUMN removed_ms;');
    // Migration 017 itself, on that layout, as the runner applies it; the later ones (018 and after) were
    // already applied to this copy, which is as close to "016 plus every later change" as a copy can be.
    old.exec(readFileSync(join(projectRoot, 'server/store/migrations/017_files_gone.sql'), 'utf8'));
    old.pragma(`user_version = ${latestSchemaVersion()}`);
    old.close();
    fresh = openDatabase(join(tmp, 'fresh.db'));
    upgraded = openDatabase(join(tmp, 'old.db'));
  }, 120_000);
  afterAll(() => {
    fresh?.close();
    upgraded?.close();
  });

  it('started from a 016 layout, and upgrades to 017 in place with every row kept and nothing gone', () => {
    expect(upgraded.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(17);
    expect(upgraded.prepare('SELECT count(*) FROM files').pluck().get()).toBeGreaterThan(30);
    expect(dumpIndex(upgraded)).toEqual(dumpIndex(fresh));
    expect(upgraded.prepare('SELECT id, indexed_ms, gone_ms FROM files ORDER BY id').all()).toEqual(
      fresh.prepare('SELECT id, indexed_ms, gone_ms FROM files ORDER BY id').all(),
    );
    expect(upgraded.prepare('SELECT count(*) FROM files WHERE gone_ms IS NOT NULL').pluck().get()).toBe(0);
    expect(upgraded.prepare('SELECT count(*) FROM roots WHERE removed_ms IS NOT NULL').pluck().get()).toBe(0);
  });

  it('answers as the fresh index does, and the next run reads nothing again', async () => {
    const [got, want] = [await answers(upgraded), await answers(fresh)];
    for (const [url, body] of want) expect(got.get(url), url).toEqual(body);
    const summary = await indexDatabase(upgraded, { analyser: 'inline' });
    expect(summary).toMatchObject({ filesChanged: 0, filesGone: 0, filesRemoved: 0 });
    expect(summary.filesUnchanged).toBeGreaterThan(30);
  });
});
