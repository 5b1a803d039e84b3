import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'vitest';

/**
 * The reference material beside the checkout (not part of a user's clone). TCF_SHARED_DIR points
 * elsewhere (a test points it at an empty folder to see a user's clone).
 */
const besideCheckout = resolve(process.env.TCF_SHARED_DIR ?? join(import.meta.dirname, '../../../shared'));
/**
 * Resolved to its real path: the scanner refuses any path that passes through a symbolic link
 * (a folder reached through one, or a file under it), and a machine may well put ../shared there
 * as a link. The material is the test's input, not a folder a user added.
 */
export const sharedDir = existsSync(besideCheckout) ? realpathSync(besideCheckout) : besideCheckout;
export const sharedAvailable = existsSync(join(sharedDir, 'bench')) && existsSync(join(sharedDir, 'corpus'));

/** The one line a run prints when suites are skipped (see shared-notice.ts). */
export function sharedNotice(skipped: readonly string[]): string {
  return (
    `NOTICE: skipped ${skipped.length} suite file(s) that need ../shared (not found at ${sharedDir}; ` +
    `only the maintainers' machines have it; CI requires it): ${skipped.join(', ')}`
  );
}

/**
 * A suite that needs ../shared. When it is there, `describe(name, body)`. When it is not, the body
 * never runs (not even at collection, where vitest runs the bodies of skipped suites): a skipped
 * placeholder stands in for it, and the run prints one NOTICE naming the skipped files. With
 * TCF_REQUIRE_SHARED set (CI) a missing ../shared fails the file instead.
 */
export function describeWithShared(name: string, body: () => void): void {
  if (sharedAvailable) {
    describe(name, body);
    return;
  }
  if (process.env.TCF_REQUIRE_SHARED) throw new Error(`"${name}" needs ../shared (looked for ${sharedDir}), and TCF_REQUIRE_SHARED is set`);
  describe.skip(name, () => {
    it.skip('needs ../shared beside the checkout', () => {});
  });
}
