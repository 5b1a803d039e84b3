import { SessionEndsQuery, SessionEndsResponse } from '../../shared/session-ends';
import { getSessionEnds } from '../query/get-session-ends';
import type { App, RouteContext } from './types';

export function sessionEndRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/session-ends', { schema: { querystring: SessionEndsQuery, response: { 200: SessionEndsResponse } } }, async (request) => {
    const q = request.query;
    const sidechain = q.sidechain === 'all' ? undefined : q.sidechain === 'sidechain';
    return getSessionEnds(ctx.db, q.dimension ?? 'version', { rootIds: q.root?.split(',').filter(Boolean).map(Number), sidechain });
  });
}
