import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/**
 * The key the files table's unique index finds a file by (migration 016): the first 64 bits of
 * SHA-256 of its relative path, as a signed integer. 8 bytes in the index instead of the path
 * (~68 bytes for Claude Code's `-home-user-src-project/<uuid>.jsonl`).
 */
export function pathHash(relPath: string): bigint {
  return createHash('sha256').update(relPath, 'utf8').digest().readBigInt64BE(0);
}

/** Registers `path_hash(text)` on a connection that writes files' rows (the upsert and migration 016 call it). */
export function registerPathHash(db: Database.Database): void {
  db.function('path_hash', { deterministic: true }, (relPath: unknown) => pathHash(String(relPath)));
}
