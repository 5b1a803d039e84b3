import { FilterQuery, RatesResponse, SummaryResponse, TimelineQuery, TimelineResponse, VersionModelResponse } from '../../shared/api-schemas';
import { getRates } from '../query/get-rates';
import { getSummary } from '../query/get-summary';
import { getVersionMarkers } from '../query/get-version-markers';
import { getVersionModelRates } from '../query/get-version-model-rates';
import { parseFilters } from './parse-filters';
import type { App, RouteContext } from './types';

export function rateRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/summary', { schema: { querystring: FilterQuery, response: { 200: SummaryResponse } } }, async (request) =>
    getSummary(ctx.db, parseFilters(request.query)),
  );

  app.get('/api/timeline', { schema: { querystring: TimelineQuery, response: { 200: TimelineResponse } } }, async (request) => {
    const filters = parseFilters(request.query);
    const bucket = request.query.bucket ?? 'day';
    return { bucket, rows: getRates(ctx.db, bucket, filters), version_markers: getVersionMarkers(ctx.db, filters) };
  });

  app.get('/api/versions', { schema: { querystring: FilterQuery, response: { 200: RatesResponse } } }, async (request) => ({
    rows: getRates(ctx.db, 'version', parseFilters(request.query)),
  }));

  app.get('/api/version-models', { schema: { querystring: FilterQuery, response: { 200: VersionModelResponse } } }, async (request) => ({
    rows: getVersionModelRates(ctx.db, parseFilters(request.query)),
  }));

  app.get('/api/models', { schema: { querystring: FilterQuery, response: { 200: RatesResponse } } }, async (request) => ({
    rows: getRates(ctx.db, 'model', parseFilters(request.query)),
  }));
}
