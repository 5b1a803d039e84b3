import { Type } from 'typebox';
import { ErrorBody, FileIdParams, FilesQuery, FilesResponse, ForgetBody, ForgetResponse } from '../../shared/api-schemas';
import { httpError } from '../http/http-error';
import type { App, RouteContext } from '../http/types';
import { getFileProblems, getFileUnknownRows } from '../query/get-file-problems';
import { folderExists } from '../query/get-folders';
import { forgetFiles, forgetPreview } from '../store/forget';
import { folderIds } from './parse-filters';

/**
 * GET /api/files: files that failed or are still being written, or (status=gone) deleted on disk and kept;
 * files read with rows of unknown types; the empty files' count.
 * DELETE /api/files/:id and POST /api/forget: forget what the index keeps (issue 27), behind the usual guards;
 * 409 index_running while an index run or the folder watcher writes.
 */
export function fileRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/files', { schema: { querystring: FilesQuery, response: { 200: FilesResponse } }, config: { cache: true } }, async (request) => ({
    rows: getFileProblems(ctx.db, request.query.status ?? 'problems', folderIds(request.query.folder)),
    ...getFileUnknownRows(ctx.db, folderIds(request.query.folder)),
  }));

  app.delete('/api/files/:id', { schema: { params: FileIdParams, response: { 204: Type.Null(), 404: ErrorBody, 409: ErrorBody } } }, async (request, reply) => {
    if (ctx.indexRuns.running) throw httpError(409, 'index_running', 'an index run is under way; forget the file when it ends');
    const counts = await forgetFiles(ctx.db, { fileId: request.params.id });
    if (counts.files === 0) throw httpError(404, 'not_found', 'no such file');
    return reply.status(204).send(null);
  });

  app.post(
    '/api/forget',
    { schema: { body: ForgetBody, response: { 200: ForgetResponse, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } } },
    async (request) => {
      const { gone, before, folder, dry_run } = request.body;
      if (gone === undefined && before === undefined && folder === undefined) {
        throw httpError(400, 'invalid_request', 'name what to forget: gone, before and/or folder');
      }
      if (before !== undefined && Number.isNaN(Date.parse(`${before}T00:00:00Z`))) throw httpError(400, 'invalid_request', 'before must be a day, YYYY-MM-DD');
      if (folder !== undefined && !folderExists(ctx.db, folder)) throw httpError(404, 'not_found', 'no such folder');
      const sel = { ...(gone ? { gone } : {}), ...(before !== undefined ? { before } : {}), ...(folder !== undefined ? { folderId: folder } : {}) };
      if (dry_run) return { forgotten: false, ...forgetPreview(ctx.db, sel) };
      if (ctx.indexRuns.running) throw httpError(409, 'index_running', 'an index run is under way; forget when it ends');
      return { forgotten: true, ...(await forgetFiles(ctx.db, sel)) };
    },
  );
}
