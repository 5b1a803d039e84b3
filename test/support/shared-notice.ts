import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TestProject } from 'vitest/node';
import { sharedAvailable, sharedNotice } from './shared-material';

const root = join(import.meta.dirname, '../..');

/** Test files that declare a suite with describeWithShared. */
function sharedSuiteFiles(dir = join(root, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sharedSuiteFiles(path);
    return /\.test\.tsx?$/.test(e.name) && /^describeWithShared\(/m.test(readFileSync(path, 'utf8')) ? [path] : [];
  });
}

/**
 * Global setup: runs once per `vitest run`, in the main process. Without ../shared (and without
 * TCF_REQUIRE_SHARED, where those files fail instead) it prints ONE notice naming the selected
 * files whose suites are skipped.
 */
export function setup(project: TestProject): void {
  if (sharedAvailable || process.env.TCF_REQUIRE_SHARED) return;
  // Each test project (vitest.config.ts) runs this setup, in the same main process: one notice for the run.
  const once = globalThis as { tcfSharedNoticePrinted?: boolean };
  if (once.tcfSharedNoticePrinted) return;
  once.tcfSharedNoticePrinted = true;
  // The files this run selected (the state API is experimental: without it, name every such file).
  let selected: Set<string> | null = null;
  try {
    selected = new Set(project.vitest.state.getFilepaths());
  } catch {
    selected = null;
  }
  const skipped = sharedSuiteFiles().filter((f) => selected === null || selected.size === 0 || selected.has(f));
  if (skipped.length > 0) process.stderr.write(`${sharedNotice(skipped.map((f) => relative(root, f)))}\n`);
}
