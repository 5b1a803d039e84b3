import { FilterQuery, SummaryResponse } from '../../shared/api-schemas';
import type { App, RouteContext } from '../http/types';
import { getSummary } from '../query/get-summary';
import { parseFilters } from './parse-filters';

/** GET /api/summary: the headline figures for the filters. */
export function summaryRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/summary', { schema: { querystring: FilterQuery, response: { 200: SummaryResponse } }, config: { cache: true } }, async (request) =>
    getSummary(ctx.db, parseFilters(request.query)),
  );
}
