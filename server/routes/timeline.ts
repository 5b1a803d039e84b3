import { TimelineQuery, TimelineResponse } from '../../shared/api-schemas';
import { sparseRates } from '../../shared/sparse-rates';
import type { App, RouteContext } from '../http/types';
import { getRateRows } from '../query/get-rates';
import { getVersionMarkers } from '../query/get-version-markers';
import { parseFilters } from './parse-filters';

/** GET /api/timeline: rates per day (or week), sparse (shared/sparse-rates.ts), with the day each version first appeared. */
export function timelineRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/timeline', { schema: { querystring: TimelineQuery, response: { 200: TimelineResponse } }, config: { cache: true } }, async (request) => {
    const filters = parseFilters(request.query);
    const bucket = request.query.bucket ?? 'day';
    return { bucket, ...sparseRates(getRateRows(ctx.db, bucket, filters)), version_markers: getVersionMarkers(ctx.db, filters) };
  });
}
