import { DiagnosticsQuery, DiagnosticsResponse } from '../../shared/api-schemas';
import type { App, RouteContext } from '../http/types';
import { getVersionDiagnostics } from '../query/get-version-diagnostics';
import { folderIds, parseFilters } from './parse-filters';

/** GET /api/diagnostics: per agent and version, text and tool_use rows and the row and block types no detector knows. */
export function diagnosticRoutes(app: App, ctx: RouteContext): void {
  app.get(
    '/api/diagnostics',
    { schema: { querystring: DiagnosticsQuery, response: { 200: DiagnosticsResponse } }, config: { cache: true } },
    async (request) => ({
      rows: getVersionDiagnostics(ctx.db, folderIds(request.query.folder), parseFilters({ agent: request.query.agent }).agents),
    }),
  );
}
