import { closeSync } from 'node:fs';
import { storageSessionOf, storageSessionStat } from '../scan/agents/opencode-storage';
import { QUIET_PERIOD_MS } from '../scan/read-json-rows';
import { OpenError, openRegularFile } from '../scan/safe-open';
import { type TranscriptEntry, type WalkResult, walkRootAsync } from '../scan/walk-inputs';
import { fingerprintOpenFile } from './file-fingerprint';
import type { FilePlan } from './file-plan';
import type { IndexSummary } from './index-summary';
import { planDatabase } from './plan-database';
import type { IndexRoot, IndexStore, KnownFile } from './storage-port';

/**
 * Longest stretch of synchronous work between two yields to the event loop. 10 ms, not 20: with a
 * collection or a commit landing on a 20 ms slice, timers ran 50-60 ms late (p99 48-50 ms at
 * 100,000 tiny files); at 10 ms, p99 29 ms.
 */
export const SLICE_MS = 10;
/** Known files read per page while planning. */
const KNOWN_FILES_PAGE = 2000;
/** Gone files marked (or removed) per transaction. */
const REMOVE_FILES_CHUNK = 500;

export function yieldSoon(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Size, mtime and fingerprint from one descriptor (a regular file, reached without links); for a
 * session of OpenCode's storage tree, of the session with all its messages and parts.
 */
function statAndFingerprint(file: TranscriptEntry): { size: number; mtimeMs: number; fingerprint: string } {
  const { fd, stat } = openRegularFile(file.path);
  let own: { size: number; mtimeMs: number; fingerprint: string };
  try {
    own = { size: stat.size, mtimeMs: stat.mtimeMs, fingerprint: fingerprintOpenFile(fd, stat.size) };
  } finally {
    closeSync(fd);
  }
  const storage = file.pieces ? storageSessionOf(file.path) : null;
  if (storage === null) return own;
  try {
    return storageSessionStat(storage.root, storage.projectId, storage.sessionId, own.fingerprint);
  } catch {
    // A piece went away while it was listed: compared as changed, and the read reports what it finds.
    return { ...own, fingerprint: '' };
  }
}

/**
 * Plans one root: walks it, compares every file's size, mtime and fingerprint with what the index
 * holds, records entries that cannot be read as failed, keeps the rows of files that are gone (marked gone),
 * and adds the files that must be read to `plan`. Yields to the event loop every SLICE_MS, so a
 * server indexing 100,000 files stays responsive. Adds nothing more once the root was removed meanwhile.
 */
export async function planRoot(store: IndexStore, root: IndexRoot, summary: IndexSummary, salvage: boolean, plan: FilePlan): Promise<void> {
  const walk: WalkResult = { files: [], problems: [], symlinksSkipped: 0 };
  // A folder, or OpenCode's database file named itself (issue 38).
  await walkRootAsync(root.path, walk, SLICE_MS);
  summary.symlinksSkipped += walk.symlinksSkipped;
  summary.filesPassedOver += walk.passedOver ?? 0;
  // What is left in `known` once every entry was seen is gone (a set of every seen name cost ~30 bytes a file).
  // Read a page at a time, yielding between pages (all 100,000 rows at once held the loop ~460 ms).
  const known = new Map<string, KnownFile>();
  for (let afterId = 0; ; ) {
    const page = store.knownFiles(root.id, afterId, KNOWN_FILES_PAGE);
    for (const f of page) known.set(f.rel_path, f);
    if (page.length < KNOWN_FILES_PAGE) break;
    afterId = page[page.length - 1]!.id;
    await yieldSoon();
  }
  // One failed entry, written at once; false when the root was removed meanwhile.
  const planned = plan.length;
  const writeFailed = (relPath: string, code: string, hint?: string): boolean => {
    const entry = { rootId: root.id, relPath, code, size: 0, mtimeMs: 0, fingerprint: '', ...(hint === undefined ? {} : { hint }) };
    if (store.writeFailedEntry(entry, known.get(relPath))) return true;
    summary.rootsRemoved++;
    plan.truncate(planned);
    return false;
  };

  // A folder that cannot be read (or an entry that is not a file) is a failed entry, so it is never silently left out.
  for (const problem of walk.problems) {
    if (!writeFailed(problem.name, problem.code)) return;
    known.delete(problem.name);
    summary.filesFailed++;
  }

  // OpenCode's databases (issue 38): a session at a time, each an entry of its own (plan-database.ts).
  for (const database of walk.databases ?? []) {
    if (!(await planDatabase({ store, root, summary, plan, known, writeFailed, yieldSoon }, database))) return;
  }

  let since = performance.now();
  for (const file of walk.files) {
    if (performance.now() - since >= SLICE_MS) {
      await yieldSoon();
      since = performance.now();
    }
    summary.filesSeen++;
    const old = known.get(file.name);
    let size: number;
    let mtimeMs: number;
    let fingerprint: string;
    try {
      ({ size, mtimeMs, fingerprint } = statAndFingerprint(file));
    } catch (error) {
      if (!writeFailed(file.name, error instanceof OpenError ? error.problem : 'unreadable')) return;
      known.delete(file.name);
      summary.filesFailed++;
      continue;
    }
    known.delete(file.name);
    // A gone file back on disk as it was (same size and fingerprint; a restore may not keep the mtime): present again,
    // not read again. Back changed, it is read afresh below and its rows replaced, whatever session it now holds.
    if (old?.gone) {
      if (old.size === size && old.fingerprint === fingerprint) {
        store.markBack(old, mtimeMs);
        summary.filesUnchanged++;
        summary.filesBack++;
        continue;
      }
      plan.add(root, { relPath: file.name, path: file.path, size, mtimeMs, fingerprint, previousFindings: old.findings });
      continue;
    }
    // A file "being written" that has been quiet for the quiet period is read again, to fail it.
    const quiet = old?.status === 'in_progress' && Date.now() - mtimeMs > QUIET_PERIOD_MS;
    // With salvage on, a file that failed before is read again (it may now be salvaged).
    const retry = quiet || (salvage && old?.status === 'failed');
    if (old && !retry && old.size === size && old.mtime_ms === mtimeMs && old.fingerprint === fingerprint) {
      summary.filesUnchanged++;
      if (old.status === 'failed') summary.filesFailed++;
      if (old.status === 'in_progress') summary.filesInProgress++;
      continue;
    }
    plan.add(root, { relPath: file.name, path: file.path, size, mtimeMs, fingerprint, previousFindings: old?.findings ?? 0 });
  }

  // Files no longer on disk (issue 27): an ok file keeps its rows as gone (Claude Code deletes old transcripts; the
  // index keeps their metadata until the user forgets it); a failed or in-progress one is removed. Files already
  // gone are left as they are. In transactions of a bounded size, yielding between them: a folder of 100,000 files
  // emptied must not hold the loop.
  const gone = [...known.values()].filter((f) => !f.gone);
  for (let i = 0; i < gone.length; i += REMOVE_FILES_CHUNK) {
    if (i > 0) await yieldSoon();
    const chunk = gone.slice(i, i + REMOVE_FILES_CHUNK);
    store.markGone(chunk);
    for (const f of chunk) {
      if (f.status === 'ok') summary.filesGone++;
      else {
        summary.findingsRemoved += f.findings;
        summary.filesRemoved++;
      }
    }
  }
}
