// Starts the CLI (`npm run cli`, `npm start`) from a JavaScript bundle of its TypeScript.
//
// Loading the sources through the tsx loader cost ~0.3 s at every start, a fifth of a full
// index of 300 MB and most of a re-index that has nothing to do. esbuild bundles the CLI in
// ~50 ms, one chunk per command (so `scan` never loads the server's packages), with the
// index's worker thread (which the pool finds beside its own chunk, through import.meta.url), into
// node_modules/.cache, and rebuilds it when any source under server/ or shared/, or
// package.json, is newer than the bundle. Packages stay in node_modules (not bundled).
//
// Plain JavaScript on purpose: it runs before anything could compile TypeScript.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildCliBundle, newestMtime } from '../build/build-tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// TCF_CLI_BUNDLE_DIR (for tests) must be inside the checkout too: the bundle imports packages from node_modules.
const cacheDir = process.env.TCF_CLI_BUNDLE_DIR ?? join(root, 'node_modules', '.cache', 'tool-call-forensics');
const SOURCES = ['server', 'shared', 'package.json'];

// One folder per state of the sources: a process still running an older bundle keeps its
// chunks, and two processes starting at once never read a half-written bundle.
const stamp = Math.floor(Math.max(...SOURCES.map((p) => newestMtime(join(root, p)))));
const bundleDir = join(cacheDir, `cli-${stamp}`);
const entry = join(bundleDir, 'main.mjs');

if (!existsSync(entry)) {
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${bundleDir}.${process.pid}.partial`;
  await buildCliBundle(root, partial);
  try {
    renameSync(partial, bundleDir);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another process finished the same bundle first
  }
  // Bundles of older sources, once nothing can still be loading them.
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (path !== bundleDir && name.startsWith('cli-') && statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
  }
}

await import(pathToFileURL(entry).href);
