import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, utimesSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { READ_ONLY_OFF, READ_ONLY_REASONS, type ReadOnlyReason } from '../../shared/read-only';
import { projectRoot } from '../build/project-root';
import { toolVersion } from '../build/tool-version';
import { IndexRunner } from '../index/index-runner';
import { RootWatcher } from '../live/watch-folders';
import { type Db, openDatabase, openDatabaseQueryOnly, openDatabaseReadOnly } from '../store/database';
import { defaultDbPath, demoDbPath } from '../store/default-db-path';
import { addRoot, removeRootsExcept } from '../store/roots';
import { buildApp } from './build-app';
import { indexInThread, liveWritesInThread, serverIndexRuns } from './index-thread';
import { ServeError } from './serve-error';
import { databaseWriteProblem, followReadOnlyIndex } from './serve-read-only';

export { ServeError, toolVersion };

export const DEMO_CORPUS = join(projectRoot, 'fixtures/demo/projects');
export const DEMO_LABEL = 'demo (generated)';

export interface ServeOptions {
  db?: string;
  port?: number;
  host?: string;
  /** Needed to bind anything but a loopback address. */
  allowRemote?: boolean;
  /** Index the bundled demo corpus into the separate demo database and serve that. */
  demo?: boolean;
  /** Folders to add as roots and index before serving. */
  dirs?: string[];
  webRoot?: string | null;
  log?: (line: string) => void;
  /** Least time between two index run progress events (default 100 ms). */
  progressIntervalMs?: number;
  /** Follow every root's folder and re-index changed files as they are written (default true; `--no-watch`). */
  watch?: boolean;
  /**
   * Open the index without writing it (`--read-only`): browse only. Also chosen, whatever this says,
   * when the database file or its folder cannot be written.
   */
  readOnly?: boolean;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/** Host header values a browser sends for this address and port. */
export function hostHeadersFor(host: string, port: number): string[] {
  const name = isIP(host) === 6 ? `[${host}]` : host;
  const names = new Set([`${name}:${port}`]);
  if (isLoopback(host)) names.add(`localhost:${port}`);
  return [...names].map((h) => h.toLowerCase());
}

/**
 * The demo shows a file "being written", which only lasts for the quiet period after its last
 * change (then it fails as unfinished_last_line); a checkout's mtimes are whenever it was made,
 * so the demo marks it as just written.
 */
function freshenDemoFilesBeingWritten(): void {
  try {
    const truth = JSON.parse(readFileSync(join(DEMO_CORPUS, '..', 'truth.json'), 'utf8')) as { in_progress_files?: string[] };
    const now = new Date();
    for (const f of truth.in_progress_files ?? []) utimesSync(join(DEMO_CORPUS, f), now, now);
  } catch {
    // A demo without its truth file just shows what the index finds.
  }
}

/** Opens the database, indexes what was asked, and serves the API and page until closed. */
export async function startServer(options: ServeOptions) {
  const log = options.log ?? ((line: string) => process.stdout.write(line + '\n'));
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.allowRemote) {
    throw new ServeError('binding to a non-loopback address exposes your index to the network; add --allow-remote if you mean it');
  }
  if (!isLoopback(host)) log(`WARNING: listening on ${host}, reachable from other machines. Anyone who can reach it can read your index's metadata.`);
  const { db, readOnly, followed } = openForServing(options.db ?? (options.demo ? demoDbPath() : defaultDbPath()), options);
  if (readOnly) log(`Read-only index (${READ_ONLY_REASONS[readOnly]}): ${READ_ONLY_OFF}, and folders are not watched.`);
  if (options.demo) {
    // The demo database holds the bundled corpus only (another checkout may have left its own copy).
    removeRootsExcept(db, addRoot(db, DEMO_CORPUS, DEMO_LABEL).id);
    freshenDemoFilesBeingWritten();
    const s = await indexInThread(db);
    log(`Demo corpus indexed (${s.filesSeen} files; generated data, not real sessions).`);
  }
  for (const dir of options.dirs ?? []) addRoot(db, dir);
  const indexRuns = new IndexRunner(serverIndexRuns(db), 'auto', options.progressIntervalMs);
  // Watching starts before the first index, so nothing written meanwhile is missed; it indexes once that ends.
  const watcher = options.watch !== false && !options.demo && !readOnly ? new RootWatcher(db, indexRuns, { writer: liveWritesInThread(db) }) : null;
  await watcher?.start();
  if (options.dirs?.length) {
    const first = indexInThread(db, { onWaiting: (holder) => log(`waiting: ${holder.message.replace(/; try again.*$/, '')}…`) });
    watcher?.holdUntil(first);
    const s = await first;
    log(`Indexed ${s.filesSeen} files (${s.filesFailed} failed, ${s.filesInProgress} being written).`);
  }
  const token = randomBytes(24).toString('base64url');
  const allowedHosts: string[] = [];
  const webRoot = options.webRoot === undefined ? join(projectRoot, 'web/dist') : options.webRoot;
  const app = await buildApp({
    db,
    token,
    allowedHosts,
    webRoot: webRoot && existsSync(webRoot) ? webRoot : null,
    demo: options.demo ?? false,
    toolVersion: toolVersion(),
    progressIntervalMs: options.progressIntervalMs,
    indexRuns,
    live: watcher,
    readOnly,
    currentDb: followed?.current,
  });
  if (watcher) {
    // A folder added or removed on the page is watched, or no longer, at once.
    app.addHook('onResponse', async (request, reply) => {
      if (request.method !== 'GET' && request.url.startsWith('/api/folders') && reply.statusCode < 300) await watcher.syncRoots();
    });
    watcher.on('watch-error', (label, code) => log(`Watching folder "${label}" failed (${code}): press Index on the page to index its changes.`));
    log('Watching your folders for changes (--no-watch to turn off).');
  }
  await app.listen({ host, port: options.port ?? 4319 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 4319);
  allowedHosts.push(...hostHeadersFor(host, port));
  const url = `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}/`;
  log(`Dashboard: ${url}${options.demo ? '  (demo data)' : ''}`);
  log(`API token for POST/DELETE from scripts (header x-tcf-token): ${token}`);
  const close = async () => {
    await watcher?.close();
    await indexRuns.close();
    await app.close();
    if (followed) followed.close();
    else db.close();
  };
  return { app, url, port, token, close, watcher, readOnly };
}

/**
 * The index, writable when it can be; else read-only, and why. What needs to write is refused
 * before anything is opened: folders to add and index, and the demo (it indexes the bundled
 * corpus into its own database at every start). A read-only index must exist (nothing can make
 * one) and have this build's schema (upgrading writes). Opened read-only the way `report` opens
 * it (immutable when its folder cannot be written and no side files exist; refused with
 * `read_only` when a -wal holds changes that cannot be merged; a snapshot is then followed, and
 * reopened when another process has written the file: serve-read-only.ts); with --read-only on a
 * database this user could write, as a query-only handle that leaves no side files behind.
 */
function openForServing(path: string, options: ServeOptions): { db: Db; readOnly: ReadOnlyReason | null; followed?: ReturnType<typeof followReadOnlyIndex> } {
  const problem = path === ':memory:' ? null : databaseWriteProblem(path);
  const readOnly: ReadOnlyReason | null = problem ?? (options.readOnly ? 'requested' : null);
  if (readOnly === null) return { db: openDatabase(path), readOnly };
  const why = READ_ONLY_REASONS[readOnly];
  if (options.demo) {
    throw new ServeError(
      readOnly === 'requested'
        ? '--demo indexes the bundled corpus into its own database at every start, so it cannot be --read-only'
        : `the demo database cannot be written (${why}), and --demo indexes the bundled corpus into it at every start: set XDG_DATA_HOME to a folder you can write`,
    );
  }
  if (options.dirs?.length) {
    throw new ServeError(
      `folders to index were given, but the index is read-only (${why}): serve it without folders to browse it, or index them with write access`,
    );
  }
  if (path === ':memory:' || !existsSync(resolve(path))) {
    throw new ServeError(`no index database there, and a read-only one cannot be made (${why}): run \`index <dir>\` with write access first`);
  }
  if (!problem) return { db: openDatabaseQueryOnly(path), readOnly };
  const followed = followReadOnlyIndex(path, () => openDatabaseReadOnly(path, { upgrade: false }));
  return { db: followed.first, readOnly, followed };
}
