import { closeSync, lstatSync, readSync, realpathSync, type Stats } from 'node:fs';
import { basename } from 'node:path';
import { isStorageRoot, STORAGE_FOLDERS } from './agents/opencode-storage';
import { childPath, displayComponent } from './file-name-bytes';
import { isOpenCodeDatabaseName } from './opencode-db';
import { listDirectory, OpenError, openRegularFile, type RawEntry } from './safe-open';

export interface TranscriptEntry {
  /**
   * Absolute (or as-given) path used to open the file; never printed. When a component's name is
   * not plain UTF-8 this is the marked form of file-name-bytes.ts (childPath), which safe-open turns
   * back into the name's bytes.
   */
  path: string;
  /** Name shown to users: relative to its input, '/'-separated, each component its display name (file-name-bytes.ts). */
  name: string;
  /** A session file of OpenCode's storage tree: read, and compared between runs, with its messages and parts (opencode-storage.ts). */
  pieces?: true;
}

export interface WalkProblem {
  name: string;
  code: 'unreadable' | 'not_regular_file' | 'path_changed';
}

export interface WalkResult {
  files: TranscriptEntry[];
  problems: WalkProblem[];
  symlinksSkipped: number;
  /** Walked `.json` files that do not begin like a whole-file transcript (a package.json, a settings file): counted, never read. */
  passedOver?: number;
  /** OpenCode's databases (`opencode.db`, opencode-db.ts): read by the index, a session at a time, never as a file. */
  databases?: TranscriptEntry[];
}

/** Raised for an input the user named that cannot be used at all. Its message names no path. */
export class InputError extends Error {}

/** Transcripts (`.jsonl`) and stream captures (`.jsonl` stream-json, `.ndjson`, raw `.sse` logs). */
export const SCANNED_EXTENSIONS = ['.jsonl', '.ndjson', '.sse'] as const;
const scanned = (name: string) => SCANNED_EXTENSIONS.some((ext) => name.endsWith(ext));

/** Names a walk may read: transcripts and captures, and `.json` files that begin like a whole-file transcript (jsonMayBeTranscript). */
export const mayBeWalked = (name: string) => scanned(name) || name.endsWith('.json');

/**
 * Whole-file JSON transcripts are named `.json` on a user's machine (Gemini CLI's chats up to v0.38,
 * `~/.gemini/tmp/<project>/chats/session-*.json`), beside other JSON files that are not transcripts.
 * A walked `.json` is read only when its first bytes open a document a reader here knows: an object
 * whose first key is one of these (a Gemini CLI chat's header keys; OpenCode's export `info`), or a
 * list whose first item opens with `role` (Gemini CLI's saved history, which its reader refuses).
 * Any other walked `.json` is passed over and counted apart; a `.json` named as an input is always
 * read (and refused `unknown_format` when no reader claims it).
 */
const DOCUMENT_FIRST_KEYS = new Set(['sessionId', 'projectHash', 'startTime', 'lastUpdated', 'kind', 'messages', 'info']);
const JSON_HEAD_BYTES = 4096;
const FIRST_KEY = /^\uFEFF?[ \t\r\n]*(\[[ \t\r\n]*)?\{[ \t\r\n]*"([A-Za-z_$][A-Za-z0-9_$]{0,39})"[ \t\r\n]*:/;

/** Whether a walked `.json` begins like a whole-file transcript (see DOCUMENT_FIRST_KEYS); an unreadable one is read (and reported) by the scan. */
export function jsonMayBeTranscript(path: string): boolean {
  let fd: number;
  try {
    ({ fd } = openRegularFile(path));
  } catch {
    return true;
  }
  try {
    const head = Buffer.alloc(JSON_HEAD_BYTES);
    const n = readSync(fd, head, 0, JSON_HEAD_BYTES, 0);
    const match = FIRST_KEY.exec(head.subarray(0, n).toString('utf8'));
    if (match === null) return false;
    return match[1] === undefined ? DOCUMENT_FIRST_KEYS.has(match[2]!) : match[2] === 'role';
  } catch {
    return true;
  } finally {
    closeSync(fd);
  }
}

/** Entries between two chances for an asynchronous walk to yield. */
const ENTRIES_PER_STEP = 256;

/**
 * The walk, one step at a time (a generator, so the index can yield to the event loop between
 * steps). Folders are listed through their descriptor and never through a link (safe-open);
 * entries sort by their bytes, so the order is total and the same on every run.
 */
/**
 * How a folder's `.json` files are taken: as anywhere (by their first key), as the session files of
 * an OpenCode storage tree (`session/<projectID>/`: each one a session), or as its messages and
 * parts (`message/`, `part/`: read with their session, never on their own).
 */
type JsonRole = 'first_key' | 'storage_session' | 'storage_piece';

function* walkSteps(dir: string, prefix: string, out: WalkResult, role: JsonRole = 'first_key', depth = 0): Generator<void> {
  let entries: RawEntry[];
  try {
    entries = listDirectory(dir);
  } catch (error) {
    out.problems.push({ name: prefix || '.', code: error instanceof OpenError ? error.problem : 'unreadable' });
    return;
  }
  entries.sort((a, b) => Buffer.compare(a.name, b.name));
  const storageRoot = role === 'first_key' && isStorageRoot(entries);
  let n = 0;
  for (const entry of entries) {
    if (++n % ENTRIES_PER_STEP === 0) yield;
    // Names that are not plain UTF-8 are read too, under a unique, reversible display name.
    const text = displayComponent(entry.name);
    const name = prefix ? `${prefix}/${text}` : text;
    if (entry.isSymbolicLink()) {
      out.symlinksSkipped++;
    } else if (entry.isDirectory()) {
      let inner: JsonRole = role;
      if (storageRoot && (STORAGE_FOLDERS as readonly string[]).includes(text)) inner = text === 'session' ? 'storage_session' : 'storage_piece';
      yield* walkSteps(childPath(dir, text), name, out, inner, inner === role ? depth + 1 : 0);
    } else if (scanned(text)) {
      if (entry.isFile()) out.files.push({ path: childPath(dir, text), name });
      // A FIFO, socket or device named like a transcript: listed and counted, never opened.
      else out.problems.push({ name, code: 'not_regular_file' });
    } else if (isOpenCodeDatabaseName(text) && entry.isFile()) {
      (out.databases ??= []).push({ path: childPath(dir, text), name });
    } else if (text.endsWith('.json') && entry.isFile() && role === 'storage_session' && depth === 1) {
      out.files.push({ path: childPath(dir, text), name, pieces: true });
    } else if (text.endsWith('.json') && entry.isFile() && role !== 'first_key') {
      // A message or part (read with its session), or a stray `.json` of the storage tree: counted, not read on its own.
      if (role === 'storage_session') out.passedOver = (out.passedOver ?? 0) + 1;
    } else if (text.endsWith('.json') && entry.isFile()) {
      const path = childPath(dir, text);
      if (jsonMayBeTranscript(path)) out.files.push({ path, name });
      else out.passedOver = (out.passedOver ?? 0) + 1;
    }
  }
  yield;
}

/**
 * Lists the transcript and capture files under a directory, recursively, in a stable order. Symbolic
 * links, to files or folders, are counted and never followed; folders that cannot be read
 * and entries that cannot be read as transcripts are reported, never skipped in silence.
 */
export function walkDirectory(dir: string, prefix: string, out: WalkResult): void {
  for (const _ of walkSteps(dir, prefix, out));
}

/** The same walk, yielding to the event loop at least every `sliceMs` of work (for the server). */
export async function walkDirectoryAsync(dir: string, prefix: string, out: WalkResult, sliceMs = 20): Promise<void> {
  let since = performance.now();
  for (const _ of walkSteps(dir, prefix, out)) {
    if (performance.now() - since >= sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
}

/**
 * A root that is OpenCode's database file itself (`index ~/.local/share/opencode/opencode.db`, issue 38)
 * rather than a folder: named so and not a folder (a link or a file gone is read, and reported, as the
 * database: its open refuses both). Its one entry is named by its base name, as when its folder is named.
 */
export function databaseRootEntry(rootPath: string): TranscriptEntry | null {
  const name = basename(rootPath);
  if (!isOpenCodeDatabaseName(name)) return null;
  try {
    if (lstatSync(rootPath).isDirectory()) return null;
  } catch {
    // gone: the database's read reports it
  }
  return { path: rootPath, name };
}

/** A root's walk (walkDirectoryAsync), or its one database when the root is OpenCode's database file (databaseRootEntry). */
export async function walkRootAsync(rootPath: string, out: WalkResult, sliceMs = 20): Promise<void> {
  const database = databaseRootEntry(rootPath);
  if (database !== null) (out.databases ??= []).push(database);
  else await walkDirectoryAsync(rootPath, '', out, sliceMs);
}

/** Names for several inputs: each input's base name, with -2, -3… where two are equal. */
function inputLabels(inputs: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return inputs.map((input) => {
    const base = basename(input.replace(/[\\/]+$/, '')) || 'input';
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
}

/**
 * Resolves explicit inputs (files or folders) into transcript files. With one input,
 * names are relative to it (a file input: its base name); with several, each name is
 * prefixed by its input's base name.
 */
export function walkInputs(inputs: readonly string[]): WalkResult {
  const out: WalkResult = { files: [], problems: [], symlinksSkipped: 0 };
  const labels = inputLabels(inputs);
  inputs.forEach((input, i) => {
    const position = `input ${i + 1} of ${inputs.length}`;
    let stat: Stats;
    try {
      stat = lstatSync(input);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      throw new InputError(`${position} ${missing ? 'does not exist' : 'cannot be read'}`);
    }
    if (stat.isSymbolicLink()) throw new InputError(`${position} is a symbolic link; links are never followed, give the real path`);
    const label = inputs.length === 1 ? '' : labels[i]!;
    // Files are opened by their real path (safe-open refuses any other), so a parent folder
    // that is a link (e.g. a symlinked home) is resolved once, here, from what the user named.
    let real: string;
    try {
      real = realpathSync(input);
    } catch {
      throw new InputError(`${position} cannot be read`);
    }
    if (stat.isDirectory()) {
      const before = out.problems.length;
      walkDirectory(real, label, out);
      if (out.problems.length > before && out.problems[before]!.name === (label || '.')) {
        throw new InputError(`${position} cannot be read`);
      }
    } else if (stat.isFile()) {
      const entry = { path: real, name: label ? `${label}/${basename(input)}` : basename(input) };
      // OpenCode's database named itself (`scan ~/.local/share/opencode/opencode.db`): read a session at a time.
      if (isOpenCodeDatabaseName(basename(input))) (out.databases ??= []).push(entry);
      else out.files.push(entry);
    } else {
      throw new InputError(`${position} is neither a file nor a folder`);
    }
  });
  return out;
}
