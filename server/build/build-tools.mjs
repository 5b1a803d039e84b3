// What the launcher (server/cli/launch.mjs, plain JavaScript), the index's worker pool, the page
// build check and their tests share: the esbuild options of every server bundle, and the newest
// modification time under a path. Plain JavaScript so that launch.mjs can import it before
// anything could compile TypeScript; its types are in build-tools.d.mts.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The esbuild options every server bundle uses (the CLI with its worker, or the worker alone). */
export const SERVER_BUNDLE_OPTIONS = Object.freeze({
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'silent',
});

/** The index's worker entry, relative to the checkout. */
export const ANALYSE_WORKER_SOURCE = 'server/index/analyse-worker.ts';

/** The file name of the bundled worker, beside the CLI's chunks (or alone in a temporary folder). */
export const ANALYSE_WORKER_BUNDLE = 'analyse-worker.mjs';

/** The newest modification time (ms) of a file, or of a folder and everything under it. */
export function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

/** The server's index thread (server/app/index-thread.ts): its entry, and its bundle's name beside the CLI's chunks. */
export const INDEX_THREAD_SOURCE = 'server/app/index-thread-worker.ts';
export const INDEX_THREAD_BUNDLE = 'index-thread-worker.mjs';

/**
 * Bundles the CLI (one chunk per command) with the index's worker beside it into `outdir`: what
 * `npm run cli` builds into node_modules/.cache at first start, and what `npm pack` ships prebuilt
 * (server/cli/prepack.mjs), so the installed command needs neither esbuild nor TypeScript.
 * Packages stay external: they are the installed package's dependencies.
 */
export async function buildCliBundle(root, outdir) {
  const { build } = await import('esbuild');
  await build({
    ...SERVER_BUNDLE_OPTIONS,
    // The workers are named ANALYSE_WORKER_BUNDLE and INDEX_THREAD_BUNDLE: the pool and the server's
    // index thread look for them beside their own chunks.
    entryPoints: {
      main: join(root, 'server/cli/main.ts'),
      [ANALYSE_WORKER_BUNDLE.replace(/\.mjs$/, '')]: join(root, ANALYSE_WORKER_SOURCE),
      [INDEX_THREAD_BUNDLE.replace(/\.mjs$/, '')]: join(root, INDEX_THREAD_SOURCE),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    packages: 'external',
  });
}
