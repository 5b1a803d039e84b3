import { relative, sep } from 'node:path';
import type { Db } from '../store/database';
import { prepareIndexStatements } from '../store/index-statements';
import { indexFilesOfRootNow } from './index-files';

export type TranscriptIndexOutcome = 'indexed' | 'unchanged' | 'busy' | 'outside';

/**
 * Indexes one transcript (the Stop hook's `--index`, issue 27: every session reaches the index before Claude
 * Code's cleanup can delete it, with no dashboard running), incrementally: only when it changed since it was
 * last indexed, through the folder watcher's own per-file path. Only a file under a folder the user added is
 * indexed (`outside` otherwise: explicit folders only); `busy` when an index run or the watcher holds the lock
 * (never waited for). The denominators are rebuilt when anything changed, as after any write.
 */
export async function indexTranscript(db: Db, path: string): Promise<TranscriptIndexOutcome> {
  const root = prepareIndexStatements(db)
    .allRoots.all()
    .find((r) => path.startsWith(r.path.endsWith(sep) ? r.path : r.path + sep));
  if (!root) return 'outside';
  const relPath = relative(root.path, path).split(sep).join('/');
  const update = await indexFilesOfRootNow(db, root, [relPath]);
  if (update === null) return 'busy';
  return update.filesChanged + update.filesRemoved > 0 ? 'indexed' : 'unchanged';
}
