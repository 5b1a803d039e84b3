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
