import type { FastifyRequest } from 'fastify';
import { READ_ONLY_OFF, READ_ONLY_REASONS, type ReadOnlyReason } from '../../shared/read-only';
import { HttpError } from './http-error';

/** Methods that only read; every other method on a route changes state. */
const READING = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * On a read-only index, every state-changing route (add, change or remove a folder, start an index
 * run: any method but GET, HEAD and OPTIONS, on any route, present or future) answers 409
 * `read_only` before its body is read or its handler runs, so none touches the database. One hook
 * for all of them (after the Host/Origin guard: a forged request still gets its 403); a method no
 * route has stays a 404.
 */
export function readOnlyGuard(reason: ReadOnlyReason) {
  const message = `this dashboard opened the index read-only (${READ_ONLY_REASONS[reason]}): ${READ_ONLY_OFF}`;
  return async (request: FastifyRequest) => {
    if (READING.has(request.method) || request.routeOptions.url === undefined) return;
    throw new HttpError(409, 'read_only', message);
  };
}

/**
 * An index opened as an immutable snapshot (a folder this user cannot write, with no side files)
 * is read as it was: SQLite takes no locks and reads no -wal. If another process (the owner)
 * writes it afterwards, the snapshot can no longer be trusted (stale, and a checkpoint rewrites
 * its pages under it), so every API answer but health is refused with 503 `index_changed` until
 * `serve` is started again, instead of figures that may be stale or torn. `changed` is asked per
 * request (a few stat calls) and stays true once true.
 */
export function snapshotGuard(changed: () => boolean) {
  return async (request: FastifyRequest) => {
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/health') || !changed()) return;
    throw new HttpError(
      503,
      'index_changed',
      'another process changed the index after this read-only dashboard opened it, so what it read can no longer be trusted: start `serve` again to read the new state',
    );
  };
}
