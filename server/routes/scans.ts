import { ErrorBody, ScanState, StartScanBody } from '../../shared/api-schemas';
import { ScanBusyError } from '../store/scan-runner';
import { httpError } from './http-error';
import type { App, RouteContext } from './types';

export function scanRoutes(app: App, ctx: RouteContext): void {
  app.post(
    '/api/scans',
    {
      schema: { body: StartScanBody, response: { 202: ScanState, 404: ErrorBody, 409: ErrorBody } },
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      // `curl -X POST` with no body means "all roots".
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request, reply) => {
      const rootId = request.body?.root_id;
      if (rootId !== undefined && !ctx.db.prepare('SELECT 1 FROM roots WHERE id = ?').get(rootId)) throw httpError(404, 'not_found', 'no such root');
      try {
        return reply.status(202).send(ctx.scans.start(rootId).state);
      } catch (error) {
        if (error instanceof ScanBusyError) throw httpError(409, 'scan_running', error.message);
        throw error;
      }
    },
  );

  app.get('/api/scans/current', { schema: { response: { 200: ScanState } } }, async () => ctx.scans.current());

  // Server-sent events: the current state at once, then every change, for the progress bar.
  app.get('/api/scans/events', async (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store',
      connection: 'keep-alive',
    });
    const send = (state: unknown) => res.write(`event: progress\ndata: ${JSON.stringify(state)}\n\n`);
    send(ctx.scans.current());
    ctx.scans.on('progress', send);
    // Live updates from the folder watcher (server/live): counts, codes and finding ids only.
    const live = (update: unknown) => res.write(`event: live\ndata: ${JSON.stringify(update)}\n\n`);
    ctx.scans.on('live', live);
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    request.raw.on('close', () => {
      clearInterval(ping);
      ctx.scans.off('progress', send);
      ctx.scans.off('live', live);
    });
  });
}
