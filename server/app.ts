import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyReply } from 'fastify';
import { errorBody } from '../shared/api-errors';
import { IndexRunner } from './index/index-runner';
import { analysisRoutes } from './routes/analysis';
import { exportRoutes } from './routes/export';
import { findingRoutes } from './routes/findings';
import { healthRoutes } from './routes/health';
import { HttpError } from './routes/http-error';
import { indexRunRoutes } from './routes/index-runs';
import { rateRoutes } from './routes/rates';
import { allowedHost, requestGuard, SECURITY_HEADERS } from './routes/request-guard';
import { responseCache } from './routes/response-cache';
import { rootRoutes } from './routes/roots';
import { sessionEndRoutes } from './routes/session-ends';
import type { App, RouteContext } from './routes/types';
import { type Db, describeDatabaseError } from './store/database';
import { IndexBusyError } from './store/index-lock';
import { sqliteIndexStore } from './store/index-store';
import { RootError } from './store/roots';

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
}

const TOKEN_META = '<meta name="tcf-token" content="">';

/** Builds the API and page server without listening: tests call `app.inject`. */
export async function buildApp(options: AppOptions): Promise<App> {
  const app = Fastify({
    logger: false,
    bodyLimit: 16 * 1024,
    ajv: { customOptions: { removeAdditional: false } },
    // Errors raised before routing (a URL that cannot be decoded…) get our shape and headers,
    // never the URL back, and a forged Host still gets its 403.
    frameworkErrors: (error, request, anyReply) => {
      const reply = anyReply as unknown as FastifyReply;
      reply.headers(SECURITY_HEADERS);
      if (!allowedHost(options.allowedHosts, request.headers.host)) {
        return reply.status(403).send(errorBody(403, 'forbidden_host', 'this server only answers to its own loopback address'));
      }
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      return reply.status(status).send(errorBody(status, 'bad_request', 'the request could not be parsed'));
    },
    // Refused by Node's HTTP parser (headers too large: 431, garbage): answered in the same shape.
    clientErrorHandler: (error: Error & { code?: string }, socket) => {
      if (!socket.writable) return socket.destroy();
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const body = JSON.stringify(
        errorBody(
          status,
          status === 431 ? 'headers_too_large' : status === 408 ? 'request_timeout' : 'bad_request',
          status === 431 ? 'the request headers are too large' : 'the request could not be parsed',
        ),
      );
      const headers = Object.entries({
        ...SECURITY_HEADERS,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        connection: 'close',
      })
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n');
      socket.end(
        `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n${headers}\r\n\r\n${body}`,
      );
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Every route, for the README check (test/docs) and nothing else.
  const routes: string[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
  });
  app.decorate('routeList', routes);
  const ctx: RouteContext = {
    db: options.db,
    indexRuns: options.indexRuns ?? new IndexRunner(sqliteIndexStore(options.db), options.analyser, options.progressIntervalMs),
    demo: options.demo ?? false,
    toolVersion: options.toolVersion ?? '0.0.0',
  };

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
  // After helmet, so refusals carry the security headers too.
  app.addHook('onRequest', requestGuard({ allowedHosts: options.allowedHosts, token: options.token }));
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new HttpError(429, 'rate_limited', `too many requests; try again in ${Math.ceil(context.ttl / 1000)} s`),
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string; validation?: unknown }, _request, reply) => {
    if (error instanceof HttpError) return reply.status(error.statusCode).send(errorBody(error.statusCode, error.code, error.message));
    if (error instanceof RootError) return reply.status(400).send(errorBody(400, error.problem, error.message));
    if (error instanceof IndexBusyError) return reply.status(409).send(errorBody(409, error.code, error.message));
    if (error.validation) return reply.status(400).send(errorBody(400, 'invalid_request', error.message));
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status < 500) return reply.status(status).send(errorBody(status, error.code?.toLowerCase() ?? 'bad_request', error.message));
    // 5xx hide internals: the message could hold a path or worse. A database the owner can
    // act on (disk full, damaged) is named, without its path.
    const known = describeDatabaseError(error);
    if (known) {
      process.stderr.write(`database error (${known.code})\n`);
      return reply.status(503).send(errorBody(503, known.code, known.message));
    }
    process.stderr.write(`internal error (${error.name})\n`);
    return reply.status(500).send(errorBody(500, 'internal', 'internal error'));
  });

  const cache = responseCache(options.db, {
    cacheable: (url) => /^\/api\/(summary|timeline|versions|version-models|models|findings|files|diagnostics|regressions|compare|session-ends)(\?|$)/.test(url),
  });
  app.addHook('preHandler', cache.preHandler);
  app.addHook('onSend', cache.onSend);
  // API data can change with any index run: never stored by the browser or a proxy.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  healthRoutes(app, ctx);
  rootRoutes(app, ctx);
  indexRunRoutes(app, ctx);
  rateRoutes(app, ctx);
  findingRoutes(app, ctx);
  analysisRoutes(app, ctx);
  exportRoutes(app, ctx);
  sessionEndRoutes(app, ctx);

  const webRoot = options.webRoot ?? null;
  const indexHtml =
    webRoot && existsSync(join(webRoot, 'index.html'))
      ? readFileSync(join(webRoot, 'index.html'), 'utf8').replace(TOKEN_META, `<meta name="tcf-token" content="${options.token}">`)
      : null;
  if (webRoot && indexHtml) {
    await app.register(fastifyStatic, { root: join(webRoot, 'assets'), prefix: '/assets/', index: false, wildcard: true });
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' && !request.url.startsWith('/api/') && indexHtml !== null;
    if (wantsPage) return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(indexHtml);
    return reply.status(404).send(errorBody(404, 'not_found', 'no such endpoint'));
  });
  return app;
}
