import { FORMAT_HINTS, type FormatHint } from '../../shared/format-hints';
import { printable } from '../../shared/printable';
import { SALVAGE_ADVICE, SALVAGEABLE_CODES } from '../../shared/salvage-advice';
import { indexDatabase } from '../app/index-database';
import type { IndexSummary } from '../index/index-folders';
import type { Db } from '../store/database';
import { addRoot, validateRootPath } from '../store/roots';
import { stderrProgress } from './progress-bar';

/** Adds each folder as a root (validated: an existing folder, not a link) and indexes them. */
export async function runIndex(db: Db, dirs: readonly string[], options: { salvage?: boolean; threads?: number } = {}): Promise<IndexSummary> {
  const roots = dirs.map((dir) => addRoot(db, dir));
  return indexDatabase(
    db,
    {
      rootIds: roots.map((r) => r.id),
      onProgress: stderrProgress(),
      salvage: options.salvage === true,
      // Nothing else runs on this thread: it analyses too, with one worker thread fewer.
      analyseHere: true,
      threads: options.threads,
      // Runs on one database take turns: say why nothing moves.
      onWaiting: (holder) => process.stderr.write(`waiting: ${holder.message.replace(/; try again.*$/, '')}…\n`),
    },
    // Nor does it answer requests while finishing: the denominators are rebuilt here, not in a thread of their own.
    { rebuildHere: true },
  );
}

/**
 * Checks every folder before the database is opened: a missing or linked folder is refused
 * without leaving a new, empty index behind (opening creates the file).
 */
export function checkIndexFolders(dirs: readonly string[]): void {
  for (const dir of dirs) validateRootPath(dir);
}

export function formatIndexSummary(s: IndexSummary): string {
  return (
    [
      `folders: ${s.roots}; files seen: ${s.filesSeen} (${s.filesChanged} read, ${s.filesUnchanged} unchanged, ${s.filesRemoved} removed${s.filesGone + s.filesBack > 0 ? `, ${s.filesGone} gone from disk and kept, ${s.filesBack} back on disk` : ''})`,
      `failed: ${s.filesFailed}; still being written: ${s.filesInProgress}; salvaged: ${s.filesSalvaged}; symbolic links skipped: ${s.symlinksSkipped}`,
      `read ${(s.bytesRead / 1e6).toFixed(1)} MB in ${(s.durationMs / 1000).toFixed(2)} s; findings added: ${s.findingsAdded}, removed: ${s.findingsRemoved}`,
      `formats read: ${
        Object.entries(s.formats)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') || 'none'
      }; empty (zero bytes or blank lines): ${s.filesEmpty}${s.filesPassedOver > 0 ? `; .json files passed over (not transcripts): ${s.filesPassedOver}` : ''}`,
      ...s.failures.map(
        (f) =>
          `  failed: ${s.roots > 1 ? `${printable(f.root)}: ` : ''}${printable(f.file)} (${f.code}${f.line === null ? '' : `, line ${f.line}`}${
            f.hint && Object.hasOwn(FORMAT_HINTS, f.hint) ? `; looks like: ${FORMAT_HINTS[f.hint as FormatHint]}` : ''
          }${SALVAGEABLE_CODES.includes(f.code) ? `; ${SALVAGE_ADVICE.index}` : ''})`,
      ),
      ...(Object.keys(s.terminalReasons).length > 0
        ? [
            `stream-json terminal reasons: ${Object.entries(s.terminalReasons)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')}`,
          ]
        : []),
    ].join('\n') + '\n'
  );
}
