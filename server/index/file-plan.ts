import { childPath } from '../scan/file-name-bytes';
import type { FileJob, IndexRoot } from './storage-port';

/** Sizes below this (8 GiB) and plans below 2^20 files sort by one number per file (see sortLargestFirst). */
const PACKED_SIZE_LIMIT = 2 ** 33;
const PACKED_INDEX_LIMIT = 2 ** 20;

/**
 * The files a run must read, column by column: a plan of 100,000 files held one FileJob each
 * (an object, an absolute path beside the relative one, sizes boxed as heap numbers): ~460 bytes
 * a file on the writer's thread for the whole run, which also set how far its heap grew before
 * a major collection. Here a file costs its relative path, four numbers in arrays of numbers and
 * its fingerprint; the absolute path is derived from the root's (kept only when it differs, for
 * names that are not plain UTF-8), and each FileJob is made when its batch is sent to a worker.
 */
export class FilePlan {
  private readonly rootIds: number[] = [];
  private readonly relPaths: string[] = [];
  private readonly sizes: number[] = [];
  private readonly mtimes: number[] = [];
  private readonly fingerprints: FileJob['fingerprint'][] = [];
  private readonly previousFindings: number[] = [];
  private readonly rootPaths = new Map<number, string>();
  /** Absolute paths that childPath(root, relPath) does not give back. */
  private readonly oddPaths = new Map<number, string>();
  /** Run order (indices into the columns); plan order until sorted. */
  private order: Uint32Array | null = null;
  private total = 0;
  /** Run once every planned file is written (a database source's state is recorded then, issue 38). */
  readonly afterWrite: (() => void)[] = [];
  /** Run when the run ends, however it ends (temporary copies are deleted). */
  readonly cleanups: (() => void)[] = [];
  /** Told after each file added, with the plan's bytes and files so far (the CLI starts its workers while planning). */
  onAdd: ((bytes: number, files: number) => void) | null = null;

  get length(): number {
    return this.relPaths.length;
  }

  /** Bytes of every planned file. */
  get bytes(): number {
    return this.total;
  }

  add(root: IndexRoot, job: Omit<FileJob, 'rootId'>): void {
    const i = this.relPaths.length;
    this.rootPaths.set(root.id, root.path);
    if (childPath(root.path, job.relPath) !== job.path) this.oddPaths.set(i, job.path);
    this.rootIds.push(root.id);
    this.relPaths.push(job.relPath);
    this.sizes.push(job.size);
    this.mtimes.push(job.mtimeMs);
    this.fingerprints.push(job.fingerprint);
    this.previousFindings.push(job.previousFindings);
    this.total += job.size;
    this.order = null;
    this.onAdd?.(this.total, this.relPaths.length);
  }

  /** Drops every file added after the first `n` (a root removed while it was planned). */
  truncate(n: number): void {
    for (const column of [this.rootIds, this.relPaths, this.sizes, this.mtimes, this.fingerprints, this.previousFindings])
      column.length = Math.min(column.length, n);
    for (const i of this.oddPaths.keys()) if (i >= n) this.oddPaths.delete(i);
    this.total = this.sizes.reduce((t, s) => t + s, 0);
    this.order = null;
  }

  /**
   * Largest first (ties in plan order): one very long transcript cannot be split, so it starts at
   * once while the other cores share the rest. Each file's (size, position) is packed into one
   * number and sorted natively (100,000 files: 15-30 ms on a loaded machine; a comparator, 34-59 ms).
   */
  sortLargestFirst(): void {
    const n = this.length;
    const maxSize = this.sizes.reduce((m, s) => Math.max(m, s), 0);
    if (maxSize >= PACKED_SIZE_LIMIT || n >= PACKED_INDEX_LIMIT) {
      const order = Uint32Array.from({ length: n }, (_, i) => i);
      order.sort((a, b) => this.sizes[b]! - this.sizes[a]! || a - b);
      this.order = order;
      return;
    }
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (PACKED_SIZE_LIMIT - 1 - this.sizes[i]!) * PACKED_INDEX_LIMIT + i;
    keys.sort();
    const order = new Uint32Array(n);
    for (let k = 0; k < n; k++) order[k] = keys[k]! % PACKED_INDEX_LIMIT;
    this.order = order;
  }

  private at(k: number): number {
    return this.order === null ? k : this.order[k]!;
  }

  /** Size of the k-th file in run order. */
  sizeAt(k: number): number {
    return this.sizes[this.at(k)]!;
  }

  /** The k-th file in run order, as the writer and the workers take it. */
  jobAt(k: number): FileJob {
    const i = this.at(k);
    const rootId = this.rootIds[i]!;
    const relPath = this.relPaths[i]!;
    return {
      rootId,
      relPath,
      path: this.oddPaths.get(i) ?? childPath(this.rootPaths.get(rootId)!, relPath),
      size: this.sizes[i]!,
      mtimeMs: this.mtimes[i]!,
      fingerprint: this.fingerprints[i]!,
      previousFindings: this.previousFindings[i]!,
    };
  }
}
