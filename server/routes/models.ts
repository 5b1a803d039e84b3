import { EffortRatesResponse, FilterQuery, ModelRatesResponse } from '../../shared/api-schemas';
import type { App, RouteContext } from '../http/types';
import { getRateRows } from '../query/get-rates';
import { parseFilters } from './parse-filters';

/** GET /api/models: rates per model; GET /api/efforts: rates per effort the replies were asked at. */
export function modelRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/models', { schema: { querystring: FilterQuery, response: { 200: ModelRatesResponse } }, config: { cache: true } }, async (request) => ({
    rows: getRateRows(ctx.db, 'model', parseFilters(request.query)),
  }));
  app.get('/api/efforts', { schema: { querystring: FilterQuery, response: { 200: EffortRatesResponse } }, config: { cache: true } }, async (request) => ({
    rows: getRateRows(ctx.db, 'effort', parseFilters(request.query)),
  }));
}
