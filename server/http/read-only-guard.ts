import type { FastifyRequest } from 'fastify';
import { READ_ONLY_OFF, READ_ONLY_REASONS, type ReadOnlyReason } from '../../shared/read-only';
import type { Db } from '../store/database';
import { HttpError } from './http-error';

/** Methods that only read; every other method on a route changes state. */
const READING = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * On a read-only index, every state-changing route (add, change or remove a folder, start an index
 * run: any method but GET, HEAD and OPTIONS, on any route, present or future) answers 409
 * `read_only` before its body is read or its handler runs, so none touches the database. One hook
 * for all of them (after the Host/Origin guard: a forged request still gets its 403). A URL or a
 * method no route has is refused the same way: 409, not 404, so the answer cannot depend on which
 * routes a later version adds.
 */
export function readOnlyGuard(reason: ReadOnlyReason) {
  const message = `this dashboard opened the index read-only (${READ_ONLY_REASONS[reason]}): ${READ_ONLY_OFF}`;
  return async (request: FastifyRequest) => {
    if (READING.has(request.method)) return;
    throw new HttpError(409, 'read_only', message);
  };
}

/**
 * An index opened as an immutable snapshot (a folder this user cannot write, with no side files)
 * is read as it was: SQLite takes no locks and reads no -wal. `current` (serve-read-only.ts) gives
 * the connection to read, reopened once another process has written the file and finished; while
 * its changes are not merged yet it gives null, and every API answer but health is refused with
 * 503 `index_changed` instead of figures that may be stale or torn. The routes read `ctx.db` per
 * request, so they read the connection set here.
 */
export function snapshotGuard(ctx: { db: Db }, current: () => Db | null) {
  return async (request: FastifyRequest) => {
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/health')) return;
    const db = current();
    if (db === null) {
      throw new HttpError(
        503,
        'index_changed',
        'another process is writing the index this read-only dashboard reads, and its changes are not merged yet: try again when it finishes',
      );
    }
    ctx.db = db;
  };
}
