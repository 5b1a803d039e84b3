import { closeSync, lstatSync } from 'node:fs';
import { digestLines } from './evidence-digest';
import { childPath, fsPath } from './file-name-bytes';
import { LineStarts, readLines } from './read-lines';
import { emptyRowMeta, type RowMeta, rowMetadata, timestampMs } from './row-metadata';
import { openRegularFile } from './safe-open';

/** The largest of the numbers (0 for none), without spreading them as arguments. */
function maxOf(values: readonly number[]): number {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  return max;
}

export type WindowOutcome =
  | { status: 'ok'; rows: RowMeta[]; line_count: number }
  /** The file's bytes at the finding's lines no longer hash to the indexed digest (or the file is shorter). */
  | { status: 'changed' }
  | { status: 'unreadable' };

/**
 * Opens through safe-open.ts, the one open every transcript reader uses: never through a link,
 * never blocking (a FIFO or socket swapped in for the file would otherwise hang the server's
 * only thread), a regular file by fstat of the descriptor; throws when it cannot.
 */
function openTranscript(path: string): number {
  return openRegularFile(path).fd;
}

/**
 * Re-reads lines `from`..`to` of the owner's own file (never following a link) and returns
 * their metadata through the allowlist in row-metadata.ts, but only after the finding's
 * source lines still hash to the digest taken when it was indexed.
 */
export function readRowWindow(path: string, sourceLines: readonly number[], evidenceSha256: string, from: number, to: number): WindowOutcome {
  let fd: number;
  try {
    fd = openTranscript(path);
  } catch {
    return { status: 'unreadable' };
  }
  // A loop, not Math.max(...spread): a long list of lines must not overflow the stack.
  const lastSource = maxOf(sourceLines);
  const needed = Math.max(to, lastSource);
  const starts = new LineStarts();
  const rows: RowMeta[] = [];
  let previousMs: number | null = null;
  let lines = 0;
  try {
    const outcome = readLines(
      fd,
      (text, line) => {
        lines = line;
        // Read one line past the last needed, so its span (and so its digest) is exact.
        if (line > needed) return 'stop';
        let row: unknown;
        try {
          row = text.trim() === '' ? undefined : JSON.parse(text);
        } catch {
          row = null;
        }
        if (line >= from) {
          rows.push(row === undefined ? emptyRowMeta(line, 'blank') : row === null ? emptyRowMeta(line, 'unparseable') : rowMetadata(row, line, previousMs));
        }
        const ms = row ? timestampMs(row) : null;
        if (ms !== null) previousMs = ms;
        return 'continue';
      },
      starts,
    );
    if (outcome.invalidUtf8Line !== null && outcome.invalidUtf8Line <= needed) return { status: 'changed' };
    if (starts.count < lastSource) return { status: 'changed' };
  } catch {
    return { status: 'unreadable' };
  } finally {
    closeSync(fd);
  }
  try {
    if (digestLines(path, starts, sourceLines) !== evidenceSha256) return { status: 'changed' };
  } catch {
    return { status: 'changed' };
  }
  return { status: 'ok', rows, line_count: lines };
}

/** A whole file's rows as metadata (for a session's time line), or null when it cannot be read. */
export function readAllRowMetadata(path: string): RowMeta[] | null {
  let fd: number;
  try {
    fd = openTranscript(path);
  } catch {
    return null;
  }
  const rows: RowMeta[] = [];
  let previousMs: number | null = null;
  try {
    readLines(
      fd,
      (text, line) => {
        let row: unknown;
        try {
          row = text.trim() === '' ? undefined : JSON.parse(text);
        } catch {
          row = null;
        }
        if (row === undefined) return 'continue';
        rows.push(row === null ? emptyRowMeta(line, 'unparseable') : rowMetadata(row, line, previousMs));
        const ms = row ? timestampMs(row) : null;
        if (ms !== null) previousMs = ms;
        return 'continue';
      },
      new LineStarts(),
    );
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
  return rows;
}

/**
 * The path of a file under a root, or null when a component is `..`, empty, or a symbolic link
 * now (the index never followed links; a folder swapped for one later must not be followed either).
 */
export function pathUnderRoot(root: string, relPath: string): string | null {
  const parts = relPath.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return null;
  let path = root;
  for (const part of parts) {
    // A display name (file-name-bytes.ts) stands for the bytes of a name that is not plain UTF-8.
    path = childPath(path, part);
    const real = fsPath(path);
    if (real === null) return null;
    try {
      if (lstatSync(real).isSymbolicLink()) return null;
    } catch {
      return null;
    }
  }
  return path;
}
