import { ErrorBody, FindingDetail, FindingDetailQuery, FindingIdParams, FindingsQuery, FindingsResponse } from '../../shared/api-schemas';
import { httpError } from '../http/http-error';
import type { App, RouteContext } from '../http/types';
import { DEFAULT_CONTEXT, getFindingDetail } from '../query/get-finding-detail';
import { BadCursorError, getFindings } from '../query/get-findings';
import { parseFilters } from './parse-filters';

/** GET /api/findings (one page of the list) and /api/findings/:id (one finding, with its turn strip). */
export function findingRoutes(app: App, ctx: RouteContext): void {
  app.get(
    '/api/findings',
    { schema: { querystring: FindingsQuery, response: { 200: FindingsResponse, 400: ErrorBody } }, config: { cache: true } },
    async (request) => {
      const q = request.query;
      try {
        return getFindings(ctx.db, parseFilters(q), { sort: q.sort ?? 'day_desc', limit: q.limit ?? 100, cursor: q.cursor });
      } catch (error) {
        if (error instanceof BadCursorError) throw httpError(400, 'bad_cursor', error.message);
        throw error;
      }
    },
  );

  // Not cached: the strip re-reads the owner's file on every request (and says when it changed).
  app.get(
    '/api/findings/:id',
    { schema: { params: FindingIdParams, querystring: FindingDetailQuery, response: { 200: FindingDetail, 404: ErrorBody } } },
    async (request) => {
      const detail = getFindingDetail(ctx.db, request.params.id, request.query.context ?? DEFAULT_CONTEXT);
      if (!detail) throw httpError(404, 'no_such_finding', 'no finding has this id (the file may have changed and been indexed again)');
      return detail;
    },
  );
}
