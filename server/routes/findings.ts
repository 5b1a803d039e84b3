import {
  DiagnosticsResponse,
  ErrorBody,
  FilesQuery,
  FilesResponse,
  FindingDetail,
  FindingDetailQuery,
  FindingRefParams,
  FindingsQuery,
  FindingsResponse,
  SessionParams,
  SessionResponse,
} from '../../shared/api-schemas';
import { getFileProblems } from '../query/get-file-problems';
import { DEFAULT_CONTEXT, getFindingDetail } from '../query/get-finding-detail';
import { BadCursorError, getFindings } from '../query/get-findings';
import { getSession } from '../query/get-session';
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

  // Not cached: the strip re-reads the owner's file on every request (and says when it changed).
  app.get(
    '/api/findings/:ref',
    { schema: { params: FindingRefParams, querystring: FindingDetailQuery, response: { 200: FindingDetail, 404: ErrorBody } } },
    async (request) => {
      const detail = getFindingDetail(ctx.db, request.params.ref, request.query.context ?? DEFAULT_CONTEXT);
      if (!detail) throw httpError(404, 'no_such_finding', 'no finding has this reference (the file may have changed and been indexed again)');
      return detail;
    },
  );

  app.get('/api/sessions/:hash', { schema: { params: SessionParams, response: { 200: SessionResponse, 404: ErrorBody } } }, async (request) => {
    const session = getSession(ctx.db, request.params.hash);
    if (!session) throw httpError(404, 'no_such_session', 'no indexed file belongs to this session');
    return session;
  });
}
