import { CompareQuery, CompareResponse, ErrorBody, FilterQuery, RegressionsResponse } from '../../shared/api-schemas';
import { BadSideError, getComparison } from '../query/get-comparison';
import { getRegressions } from '../query/get-regressions';
import { httpError } from './http-error';
import { parseFilters } from './parse-filters';
import type { App, RouteContext } from './types';

export function analysisRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/regressions', { schema: { querystring: FilterQuery, response: { 200: RegressionsResponse } } }, async (request) =>
    getRegressions(ctx.db, parseFilters(request.query)),
  );

  app.get('/api/compare', { schema: { querystring: CompareQuery, response: { 200: CompareResponse, 400: ErrorBody } } }, async (request) => {
    const { a, b, ...rest } = request.query;
    try {
      return getComparison(ctx.db, a, b, parseFilters(rest));
    } catch (error) {
      if (error instanceof BadSideError) throw httpError(400, 'bad_side', error.message);
      throw error;
    }
  });
}
