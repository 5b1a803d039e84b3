import { DiagnosticsResponse, ErrorBody, FilesQuery, FilesResponse, FindingsQuery, FindingsResponse } from '../../shared/api-schemas';
import { getFileProblems } from '../query/get-file-problems';
import { BadCursorError, getFindings } from '../query/get-findings';
import { getVersionDiagnostics } from '../query/get-version-diagnostics';
import { httpError } from './http-error';
import { parseFilters } from './parse-filters';
import type { App, RouteContext } from './types';

export function findingRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/findings', { schema: { querystring: FindingsQuery, response: { 200: FindingsResponse, 400: ErrorBody } } }, async (request) => {
    const q = request.query;
    try {
      return getFindings(ctx.db, parseFilters(q), { sort: q.sort ?? 'day_desc', limit: q.limit ?? 100, cursor: q.cursor });
    } catch (error) {
      if (error instanceof BadCursorError) throw httpError(400, 'bad_cursor', error.message);
      throw error;
    }
  });

  app.get('/api/diagnostics', { schema: { querystring: FilesQuery, response: { 200: DiagnosticsResponse } } }, async (request) => ({
    versions: getVersionDiagnostics(ctx.db, request.query.root?.split(',').filter(Boolean).map(Number)),
  }));

  app.get('/api/files', { schema: { querystring: FilesQuery, response: { 200: FilesResponse } } }, async (request) => ({
    items: getFileProblems(ctx.db, request.query.status ?? 'problems', request.query.root?.split(',').filter(Boolean).map(Number)),
  }));
}
