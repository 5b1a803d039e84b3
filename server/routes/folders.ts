import { Type } from 'typebox';
import { AddFolderBody, ErrorBody, Folder, FolderIdParams, FolderSettingsBody, FoldersResponse, RemoveFolderQuery } from '../../shared/api-schemas';
import { httpError } from '../http/http-error';
import type { App, RouteContext } from '../http/types';
import { getFolders } from '../query/get-folders';
import { addRoot, removeRoot, setRootSalvage } from '../store/roots';

/** The folders the owner added: list, add, change the salvage setting, remove. Not cached (the page lists them with absolute paths, rarely). */
export function folderRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/folders', { schema: { response: { 200: FoldersResponse } } }, async () => ({ rows: getFolders(ctx.db) }));

  app.post('/api/folders', { schema: { body: AddFolderBody, response: { 201: Folder, 400: ErrorBody } } }, async (request, reply) => {
    const added = addRoot(ctx.db, request.body.path, request.body.label);
    const folder = getFolders(ctx.db).find((r) => r.id === added.id)!;
    return reply.status(201).send(folder);
  });

  app.patch(
    '/api/folders/:id',
    { schema: { params: FolderIdParams, body: FolderSettingsBody, response: { 200: Folder, 404: ErrorBody } } },
    async (request) => {
      if (!setRootSalvage(ctx.db, request.params.id, request.body.salvage)) throw httpError(404, 'not_found', 'no such folder');
      return getFolders(ctx.db).find((r) => r.id === request.params.id)!;
    },
  );

  app.delete(
    '/api/folders/:id',
    { schema: { params: FolderIdParams, querystring: RemoveFolderQuery, response: { 204: Type.Null(), 404: ErrorBody, 409: ErrorBody } } },
    async (request, reply) => {
      if (ctx.indexRuns.running) throw httpError(409, 'index_running', 'an index run is under way; remove the folder when it ends');
      // By default the folder's history is kept (its files as gone, still counted); forget=true drops it (issue 27).
      if (!removeRoot(ctx.db, request.params.id, { forget: request.query.forget === true })) throw httpError(404, 'not_found', 'no such folder');
      return reply.status(204).send(null);
    },
  );
}
