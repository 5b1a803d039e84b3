import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The reference material beside the checkout (not part of a user's clone). */
export const sharedDir = resolve(import.meta.dirname, '../../../shared');
export const sharedAvailable = existsSync(join(sharedDir, 'bench/gen-corpus.mjs'));

/**
 * Suites that need ../shared run when it is there, fail when TCF_REQUIRE_SHARED is set
 * (CI sets it), and are otherwise skipped with a notice that shows in the test output.
 */
export function requireSharedOrSkip(suite: string): boolean {
  if (sharedAvailable) return true;
  if (process.env.TCF_REQUIRE_SHARED) throw new Error(`${suite} needs ../shared beside the checkout, and TCF_REQUIRE_SHARED is set`);
  console.warn(`NOTICE: skipping "${suite}": ../shared is not beside this checkout (only the maintainers' machines have it).`);
  return false;
}
