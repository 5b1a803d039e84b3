import { createHash } from 'node:crypto';

/**
 * A finding's id, as the API, the page and live updates name it: the same for the same folder
 * (root), file, code and first line, so a bookmark survives re-indexing an unchanged file (the
 * row id does not). The first line is in clear so the finding can be looked up without hashing
 * every row. Kept with the store, so the live watcher and the query layer compute the same one.
 */
export function findingId(rootId: number, relPath: string, code: string, firstLine: number): string {
  const digest = createHash('sha256').update(`${rootId}\u0000${relPath}\u0000${code}\u0000${firstLine}`).digest('hex').slice(0, 16);
  return `${firstLine}-${digest}`;
}

export function parseFindingId(id: string): { firstLine: number; digest: string } | null {
  const m = /^([0-9]{1,9})-([0-9a-f]{16})$/.exec(id);
  return m ? { firstLine: Number(m[1]), digest: m[2]! } : null;
}
