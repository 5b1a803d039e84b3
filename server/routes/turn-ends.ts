import { TurnEndsQuery, TurnEndsResponse } from '../../shared/api-schemas';
import type { App, RouteContext } from '../http/types';
import { getTurnEnds } from '../query/get-turn-ends';
import { folderIds } from './parse-filters';

/** GET /api/turn-ends: per version (or model, day, effort), how many turns ended each way (turns=last: each session's last). */
export function turnEndRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/turn-ends', { schema: { querystring: TurnEndsQuery, response: { 200: TurnEndsResponse } }, config: { cache: true } }, async (request) => {
    const q = request.query;
    const sidechain = q.sidechain === 'all' ? undefined : q.sidechain === 'sidechain';
    const efforts = q.effort ? q.effort.split(',').filter(Boolean) : undefined;
    return getTurnEnds(ctx.db, q.dimension ?? 'version', {
      folderIds: folderIds(q.folder),
      sidechain,
      lastOnly: q.turns === 'last',
      efforts,
      agents: q.agent?.split(',').filter(Boolean),
    });
  });
}
