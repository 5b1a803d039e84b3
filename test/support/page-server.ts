import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { indexDatabase } from '../../server/app/index-database';
import { type ServeOptions, startServer } from '../../server/app/serve';
import { ensureWebBuild, WEB_DIST } from '../../server/build/web-build';
import { type Db, openDatabase } from '../../server/store/database';
import { launchChromium } from './browser';

/** A browser suite's server: the page, an index of the suite's folders behind it, and Chromium to open it with. */
export interface PageServer {
  server: Awaited<ReturnType<typeof startServer>>;
  browser: Browser;
  /** The server's address without the trailing slash. */
  base: string;
  /** Closes Chromium, then the server (the suite removes its own folder). */
  close(): Promise<void>;
}

/**
 * The start-up the browser suites share: the page built (once per run), a fresh `index.db` in
 * `tmp` with the folders `addFolders` writes and adds, indexed inline, served on a free port, and
 * Chromium launched. `options` go to the server as they are (`watch: false`, `progressIntervalMs`).
 */
export async function startPageServer(
  tmp: string,
  addFolders: (db: Db) => void | Promise<void>,
  options: Omit<ServeOptions, 'port' | 'db' | 'webRoot' | 'log'> = {},
): Promise<PageServer> {
  await ensureWebBuild(() => {});
  const dbPath = join(tmp, 'index.db');
  const db = openDatabase(dbPath);
  await addFolders(db);
  await indexDatabase(db, { analyser: 'inline' });
  db.close();
  const server = await startServer({ port: 0, db: dbPath, webRoot: WEB_DIST, log: () => {}, ...options });
  const browser = await launchChromium();
  return {
    server,
    browser,
    base: server.url.replace(/\/$/, ''),
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
