import { FilterQuery, VersionModelResponse, VersionRatesResponse } from '../../shared/api-schemas';
import { getRateRows } from '../query/get-rates';
import { getVersionModelRates } from '../query/get-version-model-rates';
import { parseFilters } from './parse-filters';
import type { App, RouteContext } from './types';

/** GET /api/versions (rates per Claude Code version) and /api/version-models (per version and model). */
export function versionRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/versions', { schema: { querystring: FilterQuery, response: { 200: VersionRatesResponse } }, config: { cache: true } }, async (request) => ({
    rows: getRateRows(ctx.db, 'version', parseFilters(request.query)),
  }));

  app.get(
    '/api/version-models',
    { schema: { querystring: FilterQuery, response: { 200: VersionModelResponse } }, config: { cache: true } },
    async (request) => ({ rows: getVersionModelRates(ctx.db, parseFilters(request.query)) }),
  );
}
