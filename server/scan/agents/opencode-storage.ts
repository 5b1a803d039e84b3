import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, readSync } from 'node:fs';
import type { ScanErrorCode } from '../../../shared/scan-errors';
import { countKeyTokens, inspectParsed } from '../duplicate-keys';
import type { LineTable } from '../read-lines';
import { listDirectory, OpenError, openRegularFile, type RawEntry } from '../safe-open';
import type { JsonDocument } from './adapter';
import { documentOfText, MAX_DOCUMENT_BYTES } from './read-document';

/**
 * OpenCode's storage tree before its SQLite database (v1.2.0), still left on disk by later
 * versions: `storage/session/<projectID>/<sessionID>.json`, `storage/message/<sessionID>/<messageID>.json`,
 * `storage/part/<messageID>/<partID>.json`, each written whole by `Storage.write` as
 * `JSON.stringify(value, null, 2)` (anomalyco/opencode `packages/opencode/src/storage/storage.ts`; the
 * same three globs are what `src/storage/json-migration.ts` imports into opencode.db, with ids taken
 * from the file names). A session is read as the document `opencode export` prints for it,
 * `{info, messages: [{info, parts}]}` (messages and parts in id order, as OpenCode lists them), and
 * handed to the OpenCode adapter, so it gives the counts and findings its export gives, at the
 * lines of that export.
 *
 * The storage tree is found by its layout, the one place a path decides: a folder holding the
 * folders `session`, `message` and `part`. A session file's content must still be a session's
 * (`id` equal to its file name, `projectID`, no `messages`).
 */
export const STORAGE_FOLDERS = ['session', 'message', 'part'] as const;

/** OpenCode's ids (`ses_…`, `msg_…`, `prt_…`) as file names: anything else in the tree is not a piece OpenCode wrote. */
const ID_FILE = /^([A-Za-z0-9_-]{1,128})\.json$/;

/** Whether a folder's entries make it an OpenCode storage tree (its `session`, `message` and `part` folders, none a link). */
export function isStorageRoot(entries: readonly RawEntry[]): boolean {
  let found = 0;
  for (const e of entries) {
    // One pass, looking at folder names of 4-7 bytes only: a folder of 100,000 transcripts costs one comparison each.
    if (e.name.length < 4 || e.name.length > 7 || !e.isDirectory()) continue;
    const name = e.name.toString('latin1');
    if (name === 'session' || name === 'message' || name === 'part') found++;
  }
  return found === STORAGE_FOLDERS.length;
}

/** The storage tree and session id of `<root>/session/<projectID>/<sessionID>.json`; null for any other path. */
export function storageSessionOf(path: string): { root: string; projectId: string; sessionId: string } | null {
  if (path.startsWith('\0')) return null;
  const parts = path.split('/');
  if (parts.length < 4 || parts[parts.length - 3] !== 'session') return null;
  const file = ID_FILE.exec(parts[parts.length - 1]!);
  const projectId = parts[parts.length - 2]!;
  if (!file || !/^[A-Za-z0-9_-]{1,128}$/.test(projectId)) return null;
  const root = parts.slice(0, -3).join('/') || '/';
  for (const name of ['message', 'part']) {
    try {
      if (!lstatSync(`${root}/${name}`).isDirectory()) return null;
    } catch {
      return null;
    }
  }
  return { root, projectId, sessionId: file[1]! };
}

/** A piece that stops the session: its code, and its name relative to the storage tree (`message/<ses>/<msg>.json`). */
export interface PieceFailure {
  code: ScanErrorCode;
  piece: string | null;
}

interface Listed {
  ids: string[];
  failure: PieceFailure | null;
}

/** The ids of a folder's `<id>.json` files, sorted (OpenCode lists keys sorted); a missing folder holds none. */
function listIds(root: string, folder: string): Listed {
  let entries: RawEntry[];
  try {
    entries = listDirectory(`${root}/${folder}`);
  } catch (error) {
    if (error instanceof OpenError && error.problem === 'unreadable') {
      try {
        lstatSync(`${root}/${folder}`);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ids: [], failure: null };
      }
    }
    return { ids: [], failure: { code: error instanceof OpenError ? error.problem : 'unreadable', piece: folder } };
  }
  const ids: string[] = [];
  for (const entry of entries) {
    const name = entry.name.toString('utf8');
    const match = ID_FILE.exec(name);
    // Only regular `<id>.json` files are pieces; a link, a folder or any other name is not OpenCode's and stops the session.
    if (!match || !entry.isFile() || entry.isSymbolicLink())
      return { ids: [], failure: { code: entry.isSymbolicLink() ? 'path_changed' : 'invalid_structure', piece: match ? `${folder}/${name}` : folder } };
    ids.push(match[1]!);
  }
  ids.sort();
  return { ids, failure: null };
}

type Piece = { status: 'ok'; value: Record<string, unknown>; bytes: number; mtimeMs: number } | { status: 'failed'; failure: PieceFailure; mtimeMs: number };

/** One piece, fail closed as a document is: a regular file reached without links, UTF-8, one JSON object, no duplicate key, bounded nesting. */
function readPiece(root: string, piece: string, budget: number): Piece {
  const fail = (code: ScanErrorCode, mtimeMs = 0): Piece => ({ status: 'failed', failure: { code, piece }, mtimeMs });
  let fd: number;
  let size: number;
  let mtimeMs: number;
  try {
    const opened = openRegularFile(`${root}/${piece}`);
    fd = opened.fd;
    size = opened.stat.size;
    mtimeMs = opened.stat.mtimeMs;
  } catch (error) {
    return fail(error instanceof OpenError ? error.problem : 'unreadable');
  }
  let bytes: Buffer;
  try {
    if (size > budget) return fail('line_too_long', mtimeMs);
    bytes = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    if (read !== size) return fail('unreadable', mtimeMs);
  } catch {
    return fail('unreadable', mtimeMs);
  } finally {
    closeSync(fd);
  }
  if (!isUtf8(bytes)) return fail('invalid_utf8', mtimeMs);
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('malformed_json', mtimeMs);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail('invalid_structure', mtimeMs);
  const keys = inspectParsed(value);
  if (keys === 'too_deep') return fail('nesting_too_deep', mtimeMs);
  if (countKeyTokens(text) !== keys) return fail('duplicate_key', mtimeMs);
  return { status: 'ok', value: value as Record<string, unknown>, bytes: size, mtimeMs };
}

export type StorageRead =
  | { status: 'ok'; document: JsonDocument; lineStarts: LineTable; bytes: number; text: Buffer }
  /** `mtimeMs`: the failing piece's (0 when the failure is not one piece's content). */
  | { status: 'failed'; failure: PieceFailure; bytes: number; mtimeMs: number };

/**
 * Reads one session of the storage tree as its export document. Every piece is read fail closed;
 * a piece whose id is not its file name, or whose `sessionID`/`messageID` is not the folder it is
 * in, is `invalid_structure`. The first failure stops the session, naming the piece.
 */
export function readStorageSession(root: string, projectId: string, sessionId: string): StorageRead {
  let budget = MAX_DOCUMENT_BYTES;
  let total = 0;
  // The mtime of the last piece read: the one that failed, when one did (a piece cut mid-write is judged by its own age).
  let lastMtime = 0;
  const failed = (failure: PieceFailure): StorageRead => ({ status: 'failed', failure, bytes: total, mtimeMs: lastMtime });
  const take = (piece: string, owner: { key: string; id: string } | null, id: string): { value: Record<string, unknown> } | { failure: PieceFailure } => {
    const read = readPiece(root, piece, budget);
    lastMtime = read.mtimeMs;
    if (read.status === 'failed') return { failure: read.failure };
    total += read.bytes;
    budget -= read.bytes;
    const value = read.value;
    if (value.id !== id || (owner && Object.hasOwn(value, owner.key) && value[owner.key] !== owner.id))
      return { failure: { code: 'invalid_structure', piece } };
    return { value };
  };
  const sessionPiece = `session/${projectId}/${sessionId}.json`;
  const session = take(sessionPiece, null, sessionId);
  if ('failure' in session) return failed(session.failure);
  const info = session.value;
  if (typeof info.projectID !== 'string' || Object.hasOwn(info, 'messages')) return failed({ code: 'invalid_structure', piece: sessionPiece });
  const messageIds = listIds(root, `message/${sessionId}`);
  if (messageIds.failure) return failed(messageIds.failure);
  const messages: Array<{ info: Record<string, unknown>; parts: Record<string, unknown>[] }> = [];
  for (const messageId of messageIds.ids) {
    const message = take(`message/${sessionId}/${messageId}.json`, { key: 'sessionID', id: sessionId }, messageId);
    if ('failure' in message) return failed(message.failure);
    const partIds = listIds(root, `part/${messageId}`);
    if (partIds.failure) return failed(partIds.failure);
    const parts: Record<string, unknown>[] = [];
    for (const partId of partIds.ids) {
      const part = take(`part/${messageId}/${partId}.json`, { key: 'messageID', id: messageId }, partId);
      if ('failure' in part) return failed(part.failure);
      parts.push(part.value);
    }
    messages.push({ info: message.value, parts });
  }
  const value = { info, messages };
  // The document as `opencode export` prints it (`JSON.stringify(…, null, 2)` and a newline): lines are that export's.
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > MAX_DOCUMENT_BYTES) return failed({ code: 'line_too_long', piece: null });
  return { status: 'ok', ...documentOfText(value, bytes), text: bytes };
}

/**
 * What the index compares to decide whether a storage session is read again: the bytes of all its
 * pieces, the newest mtime among them, and a digest of every piece's name, size and mtime with the
 * session file's own fingerprint. A message or part added, removed or rewritten changes it.
 */
export function storageSessionStat(
  root: string,
  projectId: string,
  sessionId: string,
  sessionFingerprint: string,
): { size: number; mtimeMs: number; fingerprint: string } {
  const hash = createHash('sha256').update(sessionFingerprint);
  let size = 0;
  let mtimeMs = 0;
  const add = (piece: string) => {
    const stat = lstatSync(`${root}/${piece}`);
    size += stat.size;
    mtimeMs = Math.max(mtimeMs, stat.mtimeMs);
    hash.update(`\0${piece}\0${stat.size}\0${stat.mtimeMs}`);
  };
  const session = lstatSync(`${root}/session/${projectId}/${sessionId}.json`);
  size += session.size;
  mtimeMs = session.mtimeMs;
  const messages = listIds(root, `message/${sessionId}`);
  hash.update(messages.failure ? `\0!${messages.failure.piece}` : '');
  for (const messageId of messages.ids) {
    add(`message/${sessionId}/${messageId}.json`);
    const parts = listIds(root, `part/${messageId}`);
    hash.update(parts.failure ? `\0!${parts.failure.piece}` : '');
    for (const partId of parts.ids) add(`part/${messageId}/${partId}.json`);
  }
  return { size, mtimeMs, fingerprint: hash.digest('hex').slice(0, 32) };
}
