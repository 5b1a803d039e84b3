import { FilterQuery, VersionEffortResponse, VersionModelResponse, VersionRatesResponse } from '../../shared/api-schemas';
import { sparseRates } from '../../shared/sparse-rates';
import type { App, RouteContext } from '../http/types';
import { getAgentVersionRows } from '../query/get-rates';
import { getVersionEffortRates, getVersionModelRates } from '../query/get-version-model-rates';
import { parseFilters } from './parse-filters';

/**
 * GET /api/versions (rates per agent and version), /api/version-models (per agent, version and model), both sparse
 * (shared/sparse-rates.ts), and /api/version-efforts (per agent, version and effort). Versions are per agent (issue 34).
 */
export function versionRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/versions', { schema: { querystring: FilterQuery, response: { 200: VersionRatesResponse } }, config: { cache: true } }, async (request) =>
    sparseRates(getAgentVersionRows(ctx.db, parseFilters(request.query))),
  );

  app.get('/api/version-models', { schema: { querystring: FilterQuery, response: { 200: VersionModelResponse } }, config: { cache: true } }, async (request) =>
    sparseRates(getVersionModelRates(ctx.db, parseFilters(request.query))),
  );

  app.get(
    '/api/version-efforts',
    { schema: { querystring: FilterQuery, response: { 200: VersionEffortResponse } }, config: { cache: true } },
    async (request) => ({ rows: getVersionEffortRates(ctx.db, parseFilters(request.query)) }),
  );
}
