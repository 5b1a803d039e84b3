import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureWebBuild } from '../../server/build/web-build';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder for fixtures built once per `vitest run` and shared by its test files (test/support/fixture-cache.ts). */
    fixtureCache: string;
  }
}

/**
 * Global setup: runs once per `vitest run`, in the main process, before any test file.
 * - A fresh folder for the fixtures test files share within this run (removed at the end: nothing
 *   is reused from an earlier run, so a fixture is always built by the sources under test).
 * - The page (web/dist), built once when a selected file serves it (the browser tests call
 *   ensureWebBuild). Test files run side by side (vitest.config.ts: maxWorkers), and two of them
 *   building web/dist at once would empty each other's output; built here, their own
 *   ensureWebBuild finds it fresh and returns at once.
 * (One Chromium shared by the browser files was tried and dropped: a download's path() is not
 * available over a remote connection, and two files on one browser timed out on a loaded machine.)
 */
export async function setup(project: TestProject): Promise<() => void> {
  const cache = mkdtempSync(join(tmpdir(), 'tcf-fixture-cache-'));
  project.provide('fixtureCache', cache);
  // The files this run selected (the CLI's filters: an internal field, hence the guard; without it, every file).
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern ?? [];
  let selected: string[] = [];
  try {
    selected = (await project.vitest.globTestSpecifications(filters)).map((s) => s.moduleId);
  } catch {
    selected = [];
  }
  const uses = (word: string) => selected.length === 0 || selected.some((f) => readFileSync(f, 'utf8').includes(word));
  if (uses('ensureWebBuild')) await ensureWebBuild((line) => process.stderr.write(`${line}\n`));
  return () => rmSync(cache, { recursive: true, force: true });
}
