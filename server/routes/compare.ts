import { CompareQuery, CompareResponse, ErrorBody } from '../../shared/api-schemas';
import { httpError } from '../http/http-error';
import type { App, RouteContext } from '../http/types';
import { BadSideError, getComparison } from '../query/get-comparison';
import { parseFilters } from './parse-filters';

/** GET /api/compare: two sides (versions or days), code by code. */
export function compareRoutes(app: App, ctx: RouteContext): void {
  app.get(
    '/api/compare',
    { schema: { querystring: CompareQuery, response: { 200: CompareResponse, 400: ErrorBody } }, config: { cache: true } },
    async (request) => {
      const { a, b, ...rest } = request.query;
      try {
        return getComparison(ctx.db, a, b, parseFilters(rest));
      } catch (error) {
        if (error instanceof BadSideError) throw httpError(400, 'bad_side', error.message);
        throw error;
      }
    },
  );
}
