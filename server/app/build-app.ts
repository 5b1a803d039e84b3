import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import type { ReadOnlyReason } from '../../shared/read-only';
import { clientErrorHandler, errorHandler, frameworkErrors } from '../http/error-mapping';
import { HttpError } from '../http/http-error';
import { checkNumericParams } from '../http/numeric-params';
import { readOnlyGuard, snapshotGuard } from '../http/read-only-guard';
import { requestGuard } from '../http/request-guard';
import { responseCache } from '../http/response-cache';
import { HELMET_OPTIONS } from '../http/security-headers';
import { servePage } from '../http/static-page';
import type { App, LiveFeed, RouteContext } from '../http/types';
import { IndexRunner } from '../index/index-runner';
import { agentRoutes } from '../routes/agents';
import { compareRoutes } from '../routes/compare';
import { diagnosticRoutes } from '../routes/diagnostics';
import { exportRoutes } from '../routes/export';
import { fileRoutes } from '../routes/files';
import { findingRoutes } from '../routes/findings';
import { folderRoutes } from '../routes/folders';
import { healthRoutes } from '../routes/health';
import { indexRunRoutes } from '../routes/index-runs';
import { modelRoutes } from '../routes/models';
import { regressionRoutes } from '../routes/regressions';
import { sessionEndRoutes } from '../routes/session-ends';
import { sessionRoutes } from '../routes/sessions';
import { summaryRoutes } from '../routes/summary';
import { timelineRoutes } from '../routes/timeline';
import { turnEndRoutes } from '../routes/turn-ends';
import { versionRoutes } from '../routes/versions';
import type { Db } from '../store/database';
import { serverIndexRuns } from './index-thread';

export interface AppOptions {
  db: Db;
  /** Per-launch token; embedded in the served page and required for POST/DELETE without an Origin. */
  token: string;
  /** Host header values the server answers to (its bound address and port, and localhost). */
  allowedHosts: string[];
  /** Folder of the built page (index.html, assets/); no page is served when absent. */
  webRoot?: string | null;
  demo?: boolean;
  toolVersion?: string;
  indexRuns?: IndexRunner;
  analyser?: 'auto' | 'workers' | 'inline';
  /** Least time between two index run progress events (default 100 ms). */
  progressIntervalMs?: number;
  /** The index was opened read-only, and why: every state change answers 409 `read_only` (null or absent: writable). */
  readOnly?: ReadOnlyReason | null;
  /** The folder watcher, whose updates /api/index-runs/events forwards (absent: nothing is watched). */
  live?: LiveFeed | null;
  /** For an index opened as an immutable snapshot: the connection to read now (reopened after another process wrote it), or null while it is being written. */
  currentDb?: () => Db | null;
}

/** Builds the API and page server without listening: tests call `app.inject`. */
export async function buildApp(options: AppOptions): Promise<App> {
  const app = Fastify({
    logger: false,
    bodyLimit: 16 * 1024,
    ajv: { customOptions: { removeAdditional: false } },
    frameworkErrors: frameworkErrors(options.allowedHosts),
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Every route, for the README check (test/docs) and nothing else.
  const routes: string[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
  });
  // Numbers in URLs are plain decimal integers, checked before the schema's bounds.
  app.addHook('onRoute', checkNumericParams);
  app.decorate('routeList', routes);
  const ctx: RouteContext = {
    db: options.db,
    indexRuns: options.indexRuns ?? new IndexRunner(serverIndexRuns(options.db), options.analyser, options.progressIntervalMs),
    demo: options.demo ?? false,
    toolVersion: options.toolVersion ?? '0.0.0',
    readOnly: options.readOnly ?? null,
    live: options.live ?? null,
  };

  // A run still going when the server closes is stopped (its thread ends; what it committed stays).
  app.addHook('onClose', () => ctx.indexRuns.close());
  await app.register(helmet, HELMET_OPTIONS);
  // After helmet, so refusals carry the security headers too.
  app.addHook('onRequest', requestGuard({ allowedHosts: options.allowedHosts, token: options.token }));
  if (ctx.readOnly) app.addHook('onRequest', readOnlyGuard(ctx.readOnly));
  if (options.currentDb) app.addHook('onRequest', snapshotGuard(ctx, options.currentDb));
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new HttpError(429, 'rate_limited', `too many requests; try again in ${Math.ceil(context.ttl / 1000)} s`),
  });

  app.setErrorHandler(errorHandler);

  // Which answers are kept is declared by each route (`config: { cache: true }`), read by these hooks.
  const cache = responseCache(() => ctx.db);
  app.addHook('preHandler', cache.preHandler);
  app.addHook('onSend', cache.onSend);
  // API data can change with any index run: never stored by the browser or a proxy.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  // One file per resource (routes/<resource>.ts); a route that may be cached says so with `config: { cache: true }`.
  healthRoutes(app, ctx);
  folderRoutes(app, ctx);
  indexRunRoutes(app, ctx);
  summaryRoutes(app, ctx);
  timelineRoutes(app, ctx);
  versionRoutes(app, ctx);
  modelRoutes(app, ctx);
  findingRoutes(app, ctx);
  sessionRoutes(app, ctx);
  fileRoutes(app, ctx);
  agentRoutes(app, ctx);
  diagnosticRoutes(app, ctx);
  regressionRoutes(app, ctx);
  compareRoutes(app, ctx);
  exportRoutes(app, ctx);
  sessionEndRoutes(app, ctx);
  turnEndRoutes(app, ctx);

  await servePage(app, options.webRoot ?? null, options.token);
  return app;
}
