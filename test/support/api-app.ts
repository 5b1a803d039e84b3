import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app/build-app';
import { indexDatabase } from '../../server/app/index-database';
import type { App } from '../../server/http/types';
import { type Db, openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';

export const HOST = '127.0.0.1:4319';
export const TOKEN = 'test-token-0123456789';

export interface TestApp {
  app: App;
  db: Db;
  dir: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read any JSON body and assert on its shape
  get: (url: string) => Promise<{ status: number; json: any; body: string; headers: Record<string, unknown> }>;
  close: () => Promise<void>;
}

/** An app on a temporary database indexed from the given folders (inline, deterministic). */
export async function testApp(roots: string[], options: { demo?: boolean } = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'tcf-api-'));
  const db = openDatabase(join(dir, 'index.db'));
  for (const root of roots) addRoot(db, root);
  await indexDatabase(db, { analyser: 'inline' });
  const app = await buildApp({
    db,
    token: TOKEN,
    allowedHosts: [HOST, 'localhost:4319'],
    demo: options.demo ?? false,
    toolVersion: '9.9.9',
    analyser: 'inline',
  });
  return {
    app,
    db,
    dir,
    get: async (url) => {
      const r = await app.inject({ url, headers: { host: HOST } });
      return { status: r.statusCode, json: r.headers['content-type']?.toString().includes('json') ? r.json() : null, body: r.body, headers: r.headers };
    },
    close: async () => {
      await app.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
