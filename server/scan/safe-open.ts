import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { fsPath } from './file-name-bytes';

/**
 * Opening without following links, and without hanging: the ONE open of every path that reads
 * a transcript (scan, index, watcher, the finding and session views' re-reads, the Stop hook,
 * verify). test/reliability/open-swaps.test.ts swaps a FIFO, a socket and a link under each,
 * and checks no other module calls openSync. Reads are then bounded by read-lines.ts (chunks,
 * MAX_LINE_BYTES per line) or by the caller's fixed-size buffers.
 *
 * O_NOFOLLOW only guards a path's last component: a parent folder swapped for a symbolic link
 * between the walk and the open would still be followed. So after every open we ask the
 * kernel where the descriptor really is (/proc/self/fd/N on Linux) and refuse it unless that
 * is exactly the path we meant; folders are then listed through their descriptor, so a swap
 * after the check changes nothing. Where /proc is missing (macOS), the descriptor's
 * device+inode must equal an lstat of the path taken after the open (a narrower window, not
 * none: see README).
 *
 * Files are opened O_NONBLOCK (a FIFO or device named *.jsonl cannot block the open) and
 * must be regular files by fstat of the descriptor itself, before a single byte is read.
 */

export type OpenProblem = 'unreadable' | 'not_regular_file' | 'path_changed';

export class OpenError extends Error {
  constructor(readonly problem: OpenProblem) {
    super(problem);
  }
}

const PROC_FD = '/proc/self/fd';
let procAvailable: boolean | null = null;
function hasProc(): boolean {
  procAvailable ??= existsSync(PROC_FD);
  return procAvailable;
}

function verifyIdentity(fd: number, path: string | Buffer, stat: Stats): void {
  // Compared as bytes: a name need not be UTF-8 (file-name-bytes.ts).
  const expected = typeof path === 'string' ? Buffer.from(resolve(path)) : path;
  if (hasProc()) {
    let real: Buffer;
    try {
      real = readlinkSync(`${PROC_FD}/${fd}`, { encoding: 'buffer' });
    } catch {
      throw new OpenError('unreadable');
    }
    if (!real.equals(expected)) throw new OpenError('path_changed');
    return;
  }
  let now: Stats;
  try {
    now = lstatSync(expected);
  } catch {
    throw new OpenError('path_changed');
  }
  if (now.dev !== stat.dev || now.ino !== stat.ino) throw new OpenError('path_changed');
}

function openChecked(given: string, flags: number): { fd: number; stat: Stats; path: string | Buffer } {
  const path = fsPath(given);
  if (path === null) throw new OpenError('unreadable');
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the last component is a link; ENOTDIR: a folder became something else.
    throw new OpenError(code === 'ELOOP' || code === 'ENOTDIR' ? 'path_changed' : code === 'ENXIO' ? 'not_regular_file' : 'unreadable');
  }
  try {
    const stat = fstatSync(fd);
    verifyIdentity(fd, path, stat);
    return { fd, stat, path };
  } catch (error) {
    closeSync(fd);
    throw error instanceof OpenError ? error : new OpenError('unreadable');
  }
}

/** A regular file opened by openRegularFile, handed to the readers of one analysis so that each need not open it again. */
export interface OpenedFile {
  fd: number;
  stat: Stats;
}

/** Opens a regular file for reading, never through a link and never blocking; throws OpenError. */
export function openRegularFile(path: string): OpenedFile {
  const { fd, stat } = openChecked(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  if (!stat.isFile()) {
    closeSync(fd);
    throw new OpenError('not_regular_file');
  }
  return { fd, stat };
}

/**
 * Runs `use` on a folder opened without following any link (checked as every open is), given the
 * path that names that very folder while it is open: /proc/self/fd/N where there is /proc (a call
 * that resolves it, such as fs.watch, reaches the opened folder, never a link swapped in since),
 * else the checked path. The folder watcher arms its watches this way. Throws OpenError.
 */
export function withFolder<T>(path: string, use: (target: string | Buffer, stat: Stats) => T): T {
  const { fd, stat, path: real } = openChecked(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_DIRECTORY | constants.O_NONBLOCK);
  try {
    return use(hasProc() ? `${PROC_FD}/${fd}` : real, stat);
  } finally {
    closeSync(fd);
  }
}

/** A folder entry with its name as raw bytes (names need not be UTF-8). */
export interface RawEntry {
  name: Buffer;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** Lists a folder through its own descriptor (never through a link); throws OpenError. */
export function listDirectory(path: string): RawEntry[] {
  const { fd, path: real } = openChecked(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_DIRECTORY | constants.O_NONBLOCK);
  try {
    try {
      return readdirSync(hasProc() ? `${PROC_FD}/${fd}` : real, { withFileTypes: true, encoding: 'buffer' }) as unknown as RawEntry[];
    } catch {
      throw new OpenError('unreadable');
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates a new file for writing in a private folder of ours (the copy of an OpenCode database,
 * opencode-db.ts): never an existing file, never through a link (O_EXCL with O_NOFOLLOW), mode 0600.
 * Throws OpenError('unreadable') when it cannot.
 */
export function createPrivateFile(path: string): number {
  try {
    return openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch {
    throw new OpenError('unreadable');
  }
}
