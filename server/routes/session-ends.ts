import { SessionEndsQuery, SessionEndsResponse } from '../../shared/api-schemas';
import type { App, RouteContext } from '../http/types';
import { getSessionEnds } from '../query/get-session-ends';
import { folderIds } from './parse-filters';

/** GET /api/session-ends: per version (or model, or day), how many sessions ended each way. */
export function sessionEndRoutes(app: App, ctx: RouteContext): void {
  app.get(
    '/api/session-ends',
    { schema: { querystring: SessionEndsQuery, response: { 200: SessionEndsResponse } }, config: { cache: true } },
    async (request) => {
      const q = request.query;
      const sidechain = q.sidechain === 'all' ? undefined : q.sidechain === 'sidechain';
      return getSessionEnds(ctx.db, q.dimension ?? 'version', { folderIds: folderIds(q.folder), sidechain, agents: q.agent?.split(',').filter(Boolean) });
    },
  );
}
