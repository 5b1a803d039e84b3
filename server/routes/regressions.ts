import { FilterQuery, RegressionsResponse } from '../../shared/api-schemas';
import type { App, RouteContext } from '../http/types';
import { getRegressions } from '../query/get-regressions';
import { parseFilters } from './parse-filters';

/** GET /api/regressions: verdict cards (rows) and the per-code tests behind them (verdicts). */
export function regressionRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/regressions', { schema: { querystring: FilterQuery, response: { 200: RegressionsResponse } }, config: { cache: true } }, async (request) =>
    getRegressions(ctx.db, parseFilters(request.query)),
  );
}
