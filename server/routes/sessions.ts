import { ErrorBody, SessionParams, SessionResponse } from '../../shared/api-schemas';
import { httpError } from '../http/http-error';
import type { App, RouteContext } from '../http/types';
import { getSession } from '../query/get-session';

/** GET /api/sessions/:hash: one session's files (rows), their turns and findings. Not cached: small, and read per page view. */
export function sessionRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/sessions/:hash', { schema: { params: SessionParams, response: { 200: SessionResponse, 404: ErrorBody } } }, async (request) => {
    const session = getSession(ctx.db, request.params.hash);
    if (!session) throw httpError(404, 'no_such_session', 'no indexed file belongs to this session');
    return session;
  });
}
