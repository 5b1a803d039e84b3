import type { Db } from '../store/database';

const statements = new WeakMap<Db, { get: () => { value: string } | undefined }>();

/** The index's opaque id (migration 022), or null in an index made before it that could not be upgraded. */
export function getIndexId(db: Db): string | null {
  let st = statements.get(db);
  if (!st) {
    const get = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'index_id'`);
    st = { get: () => get.get() };
    statements.set(db, st);
  }
  return st.get()?.value ?? null;
}
