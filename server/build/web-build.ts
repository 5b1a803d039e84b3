import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { newestMtime } from './build-tools.mjs';
import { projectRoot } from './project-root';

export const WEB_DIST = join(projectRoot, 'web/dist');

/**
 * True when web/dist is missing or older than any source it is built from. An installed package
 * ships the page prebuilt and no sources (server/cli/prepack.mjs): never stale there.
 */
export function webBuildIsStale(): boolean {
  const index = join(WEB_DIST, 'index.html');
  if (!existsSync(join(projectRoot, 'web/src'))) return false;
  if (!existsSync(index)) return true;
  const sources = ['web/index.html', 'web/src', 'shared', 'vite.config.ts', 'package.json'].map((p) => join(projectRoot, p));
  const newest = Math.max(...sources.filter(existsSync).map(newestMtime));
  return statSync(index).mtimeMs < newest;
}

/** `npm start` builds what is needed: the page, only when its sources changed since the last build. */
export async function ensureWebBuild(log: (line: string) => void): Promise<void> {
  if (!webBuildIsStale()) return;
  log('Building the dashboard page (first start or sources changed)…');
  const { build } = await import('vite');
  // Vite takes NODE_ENV from the environment when it is set (vitest sets "test"), which would
  // ship React's development build: always build the production page.
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(projectRoot, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
}
