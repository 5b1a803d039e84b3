import { ErrorBody, IndexRunState, StartIndexRunBody } from '../../shared/api-schemas';
import { httpError } from '../http/http-error';
import type { App, RouteContext } from '../http/types';
import { IndexRunningError } from '../index/index-runner';
import { folderExists } from '../query/get-folders';

/** The index run, as the page starts and watches it: one at a time per server. */
export function indexRunRoutes(app: App, ctx: RouteContext): void {
  app.post(
    '/api/index-runs',
    {
      schema: { body: StartIndexRunBody, response: { 202: IndexRunState, 404: ErrorBody, 409: ErrorBody } },
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      // `curl -X POST` with no body means "every folder".
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request, reply) => {
      const folderId = request.body?.folder_id;
      if (folderId !== undefined && !folderExists(ctx.db, folderId)) throw httpError(404, 'not_found', 'no such folder');
      try {
        return reply.status(202).send((await ctx.indexRuns.start(folderId)).state);
      } catch (error) {
        if (error instanceof IndexRunningError) throw httpError(409, 'index_running', error.message);
        throw error;
      }
    },
  );

  app.get('/api/index-runs/current', { schema: { response: { 200: IndexRunState } } }, async () => ctx.indexRuns.current());

  // Server-sent events: the current state at once, then every change, for the progress bar.
  app.get('/api/index-runs/events', async (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store',
      connection: 'keep-alive',
    });
    const send = (state: unknown) => res.write(`event: progress\ndata: ${JSON.stringify(state)}\n\n`);
    send(ctx.indexRuns.current());
    ctx.indexRuns.on('progress', send);
    // Live updates from the folder watcher (server/live): counts, codes and finding ids only.
    const live = (update: unknown) => res.write(`event: live\ndata: ${JSON.stringify(update)}\n\n`);
    ctx.live?.on('update', live);
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    request.raw.on('close', () => {
      clearInterval(ping);
      ctx.indexRuns.off('progress', send);
      ctx.live?.off('update', live);
    });
  });
}
