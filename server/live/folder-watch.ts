import { type FSWatcher, lstatSync, watch } from 'node:fs';
import { childPath, displayComponent, fsPath } from '../scan/file-name-bytes';
import { listDirectory, withFolder } from '../scan/safe-open';

/** How many folders below a root are watched; deeper folders are followed by the periodic reconciliation only. */
export const WATCH_DEPTH = 8;

/** Folders listed between two chances for the event loop to answer requests while a root is armed. */
const FOLDERS_PER_STEP = 32;

export interface FolderWatchHandlers {
  /** Something happened to this entry (relative, '/'-separated display name): a file written, created, removed or renamed. */
  entry(relPath: string): void;
  /** A folder appeared (or a different folder took this name): its files may have been written before it was watched. */
  folderAdded(relPath: string): void;
  /** A watched folder is gone, or is no longer a folder (a link, a file): every indexed file under it. */
  folderGone(relPath: string): void;
  /** A watch could not be made (the system's inotify limit, EMFILE): its error code. */
  failed(code: string): void;
}

interface Armed {
  watcher: FSWatcher;
  dev: number;
  ino: number;
  depth: number;
}

/**
 * The watch of one root: one `fs.watch` per FOLDER (inotify on Linux, FSEvents on macOS), never
 * one per file. A folder's watch reports every change to the entries in it (a file appended to,
 * created, removed, renamed), so the files themselves need no watch of their own: 100,000 files
 * in 100 folders hold 101 watches, where chokidar held 100,101 (and ~600 MB of their objects).
 *
 * Links are never followed, not even in a race: each folder is opened O_NOFOLLOW and checked
 * (scan/safe-open.ts withFolder), and the watch is set on /proc/self/fd/N, the folder that is
 * open, not on its name. A folder whose name changes kind (folder -> link -> folder) is seen by
 * its parent's watch: an entry event for a watched name is checked by lstat (device and inode),
 * and the watch is dropped or made again. Folders deeper than WATCH_DEPTH, and anything a watch
 * missed, are left to the periodic reconciliation (watch-roots.ts).
 */
export class FolderWatch {
  private readonly armed = new Map<string, Armed>();
  private closed = false;
  private failedOnce = false;

  constructor(
    private readonly rootPath: string,
    private readonly on: FolderWatchHandlers,
    /** How many folders below the root are watched (0: the root's own entries only, as for a database file's folder). */
    private readonly maxDepth = WATCH_DEPTH,
  ) {}

  /** The number of watches held (one per folder watched). */
  get size(): number {
    return this.armed.size;
  }

  /** Watches the root and its folders down to WATCH_DEPTH; resolves once they are all watched. */
  start(): Promise<void> {
    return this.armTree('', 0);
  }

  close(): void {
    this.closed = true;
    for (const a of this.armed.values()) a.watcher.close();
    this.armed.clear();
  }

  private pathOf(rel: string): string {
    return rel === '' ? this.rootPath : childPath(this.rootPath, rel);
  }

  /** Arms `rel` and the folders under it (breadth first, yielding between slices). */
  private async armTree(rel: string, depth: number): Promise<void> {
    const queue: Array<[string, number]> = [[rel, depth]];
    let listed = 0;
    while (queue.length > 0 && !this.closed) {
      const [dir, d] = queue.shift()!;
      if (!this.armOne(dir, d) || d >= this.maxDepth) continue;
      let entries: ReturnType<typeof listDirectory>;
      try {
        entries = listDirectory(this.pathOf(dir));
      } catch {
        continue; // unreadable or swapped since: the reconciliation lists it
      }
      for (const e of entries) {
        if (e.isDirectory() && !e.isSymbolicLink()) {
          const name = displayComponent(e.name);
          queue.push([dir === '' ? name : `${dir}/${name}`, d + 1]);
        }
      }
      if (++listed % FOLDERS_PER_STEP === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Watches one folder (again when another folder took its name); false when it is no folder now. */
  private armOne(rel: string, depth: number): boolean {
    if (this.closed) return false;
    try {
      return withFolder(this.pathOf(rel), (target, stat) => {
        const old = this.armed.get(rel);
        if (old && old.dev === stat.dev && old.ino === stat.ino) return true;
        old?.watcher.close();
        this.armed.delete(rel);
        let watcher: FSWatcher;
        try {
          watcher = watch(target, { persistent: false, encoding: 'buffer' }, (type, name) => this.event(rel, depth, type, name as Buffer | null));
        } catch (error) {
          this.fail(error);
          return false;
        }
        // A watch that breaks (its folder removed on some systems): dropped; the parent's event or the reconciliation sees the rest.
        watcher.on('error', () => {
          if (this.armed.get(rel)?.watcher === watcher) this.drop(rel);
        });
        this.armed.set(rel, { watcher, dev: stat.dev, ino: stat.ino, depth });
        return true;
      });
    } catch {
      // Not a folder now (gone, a link, a file), or unreadable: nothing to watch here.
      return false;
    }
  }

  private fail(error: unknown): void {
    if (this.failedOnce) return;
    this.failedOnce = true;
    const code = (error as NodeJS.ErrnoException).code;
    this.on.failed(typeof code === 'string' && /^[A-Z0-9_]{1,20}$/.test(code) ? code : 'unknown');
  }

  /** Drops the watch of `rel` and of every folder under it. */
  private drop(rel: string): void {
    for (const [name, a] of this.armed) {
      if (name === rel || rel === '' || name.startsWith(`${rel}/`)) {
        a.watcher.close();
        this.armed.delete(name);
      }
    }
  }

  private event(dir: string, depth: number, type: string, raw: Buffer | null): void {
    if (this.closed || !this.armed.has(dir)) return;
    if (raw === null) {
      // The system did not say which entry (an overflowed queue): the whole folder again.
      this.on.folderAdded(dir);
      void this.armTree(dir, depth);
      return;
    }
    const name = displayComponent(raw);
    const rel = dir === '' ? name : `${dir}/${name}`;
    this.on.entry(rel);
    // An entry made, removed or renamed, or a watched folder touched: is it (still) the folder watched?
    if (type === 'rename' || this.armed.has(rel)) this.check(rel, depth + 1);
  }

  /** The entry `rel` (at `depth`) as it is now: a folder to watch, or a folder no longer there. */
  private check(rel: string, depth: number): void {
    const real = fsPath(this.pathOf(rel));
    let folder: { dev: number; ino: number } | null = null;
    try {
      const stat = real === null ? null : lstatSync(real);
      if (stat?.isDirectory()) folder = stat;
    } catch {
      // gone
    }
    const old = this.armed.get(rel);
    if (folder === null) {
      if (!old) return;
      this.drop(rel);
      this.on.folderGone(rel);
      return;
    }
    if (old && old.dev === folder.dev && old.ino === folder.ino) return;
    if (old) {
      // Another folder under the same name: what was indexed under it is looked at again too.
      this.drop(rel);
      this.on.folderGone(rel);
    }
    this.on.folderAdded(rel);
    if (depth <= this.maxDepth) void this.armTree(rel, depth);
  }
}
