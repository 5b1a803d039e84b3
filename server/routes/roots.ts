import { Type } from 'typebox';
import { AddRootBody, ErrorBody, Root, RootIdParams, RootSettingsBody, RootsResponse } from '../../shared/api-schemas';
import { getRoots } from '../query/get-roots';
import { addRoot, removeRoot, setRootSalvage } from '../store/roots';
import { httpError } from './http-error';
import type { App, RouteContext } from './types';

export function rootRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/roots', { schema: { response: { 200: RootsResponse } } }, async () => ({ roots: getRoots(ctx.db) }));

  app.post('/api/roots', { schema: { body: AddRootBody, response: { 201: Root, 400: ErrorBody } } }, async (request, reply) => {
    const added = addRoot(ctx.db, request.body.path, request.body.label);
    const root = getRoots(ctx.db).find((r) => r.id === added.id)!;
    return reply.status(201).send(root);
  });

  app.patch('/api/roots/:id', { schema: { params: RootIdParams, body: RootSettingsBody, response: { 200: Root, 404: ErrorBody } } }, async (request) => {
    if (!setRootSalvage(ctx.db, request.params.id, request.body.salvage)) throw httpError(404, 'not_found', 'no such root');
    return getRoots(ctx.db).find((r) => r.id === request.params.id)!;
  });

  app.delete('/api/roots/:id', { schema: { params: RootIdParams, response: { 204: Type.Null(), 404: ErrorBody, 409: ErrorBody } } }, async (request, reply) => {
    if (ctx.indexRuns.running) throw httpError(409, 'index_running', 'an index run is running; remove the folder when it ends');
    if (!removeRoot(ctx.db, request.params.id)) throw httpError(404, 'not_found', 'no such root');
    return reply.status(204).send(null);
  });
}
