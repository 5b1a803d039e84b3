import { FilesQuery, FilesResponse } from '../../shared/api-schemas';
import { getFileProblems, getFileUnknownRows } from '../query/get-file-problems';
import { folderIds } from './parse-filters';
import type { App, RouteContext } from './types';

/** GET /api/files: files that failed or are still being written; files read with rows of unknown types; the empty files' count. */
export function fileRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/files', { schema: { querystring: FilesQuery, response: { 200: FilesResponse } }, config: { cache: true } }, async (request) => ({
    rows: getFileProblems(ctx.db, request.query.status ?? 'problems', folderIds(request.query.folder)),
    ...getFileUnknownRows(ctx.db, folderIds(request.query.folder)),
  }));
}
