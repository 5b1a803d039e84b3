import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from './database';

const KEY = 'pseudonym_salt';

/**
 * The salt for file pseudonyms in exported reports: made once, kept only in this local
 * database, so the owner can map a pseudonym back to a file and nobody else can.
 */
export function pseudonymSalt(db: Db): string {
  const row = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(KEY);
  if (row) return row.value;
  const salt = randomBytes(32).toString('hex');
  db.prepare<[string, string]>('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(KEY, salt);
  return db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(KEY)!.value;
}

/** Stable pseudonym of a file's path relative to its root. */
export function filePseudonym(salt: string, relPath: string): string {
  return `file-${createHmac('sha256', salt).update(relPath).digest('hex').slice(0, 16)}`;
}
