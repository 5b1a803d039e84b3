import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyReply } from 'fastify';
import { API_ERRORS, type ApiErrorCode, errorBody } from '../shared/api-errors';
import type { ReadOnlyReason } from '../shared/read-only';
import { IndexRunner } from './index/index-runner';
import { serverIndexRuns } from './index-thread';
import { agentRoutes } from './routes/agents';
import { compareRoutes } from './routes/compare';
import { diagnosticRoutes } from './routes/diagnostics';
import { exportRoutes } from './routes/export';
import { fileRoutes } from './routes/files';
import { findingRoutes } from './routes/findings';
import { folderRoutes } from './routes/folders';
import { healthRoutes } from './routes/health';
import { HttpError } from './routes/http-error';
import { indexRunRoutes } from './routes/index-runs';
import { modelRoutes } from './routes/models';
import { checkNumericParams } from './routes/numeric-params';
import { readOnlyGuard, snapshotGuard } from './routes/read-only-guard';
import { regressionRoutes } from './routes/regressions';
import { allowedHost, requestGuard, SECURITY_HEADERS } from './routes/request-guard';
import { responseCache } from './routes/response-cache';
import { sessionEndRoutes } from './routes/session-ends';
import { sessionRoutes } from './routes/sessions';
import { summaryRoutes } from './routes/summary';
import { timelineRoutes } from './routes/timeline';
import { turnEndRoutes } from './routes/turn-ends';
import type { App, RouteContext } from './routes/types';
import { versionRoutes } from './routes/versions';
import { type Db, describeDatabaseError } from './store/database';
import { IndexBusyError } from './store/index-lock';
import { RootError, type RootProblem } from './store/roots';

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
  /** For an index opened as an immutable snapshot: the connection to read now (reopened after another process wrote it), or null while it is being written. */
  currentDb?: () => Db | null;
}

/** Public codes for a folder that cannot be added (the store's names, in the API's vocabulary where they differ). */
const FOLDER_PROBLEM_CODES: Record<RootProblem, ApiErrorCode> = {
  not_found: 'folder_not_found',
  not_directory: 'not_directory',
  symlink: 'symlink',
  symlink_parent: 'symlink_parent',
  unreadable: 'unreadable',
  overlapping_root: 'overlapping_folder',
  filesystem_root: 'filesystem_root',
};

/** Our code for an error a framework raised (Fastify's FST_ERR_* codes, a plugin's, the HTTP parser's), by its code, then its status. */
function frameworkErrorCode(error: { statusCode?: number; code?: string }): ApiErrorCode {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'payload_too_large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported_media_type';
  }
  switch (error.statusCode) {
    case 404:
      return 'not_found';
    case 408:
      return 'request_timeout';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 431:
      return 'headers_too_large';
    default:
      return 'bad_request';
  }
}

const FRAMEWORK_MESSAGES: Partial<Record<ApiErrorCode, string>> = {
  bad_request: 'the request could not be parsed',
  not_found: 'no such endpoint',
  request_timeout: 'the request was not received in time',
  payload_too_large: 'the request body is too large (16 KB at most)',
  unsupported_media_type: 'send the request body as application/json',
  headers_too_large: 'the request headers are too large',
};

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
        return reply.status(403).send(errorBody('forbidden_host', 'this server only answers to its own loopback address'));
      }
      const code = frameworkErrorCode(error);
      return reply.status(API_ERRORS[code].status).send(errorBody(code, FRAMEWORK_MESSAGES[code] ?? 'the request could not be parsed'));
    },
    // Refused by Node's HTTP parser (headers too large: 431, garbage): answered in the same shape.
    clientErrorHandler: (error: Error & { code?: string }, socket) => {
      if (!socket.writable) return socket.destroy();
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const code = status === 431 ? 'headers_too_large' : status === 408 ? 'request_timeout' : 'bad_request';
      const body = JSON.stringify(errorBody(code, FRAMEWORK_MESSAGES[code] ?? 'the request could not be parsed'));
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
  // Numbers in URLs are plain decimal integers, checked before the schema's bounds.
  app.addHook('onRoute', checkNumericParams);
  app.decorate('routeList', routes);
  const ctx: RouteContext = {
    db: options.db,
    indexRuns: options.indexRuns ?? new IndexRunner(serverIndexRuns(options.db), options.analyser, options.progressIntervalMs),
    demo: options.demo ?? false,
    toolVersion: options.toolVersion ?? '0.0.0',
    readOnly: options.readOnly ?? null,
  };

  // A run still going when the server closes is stopped (its thread ends; what it committed stays).
  app.addHook('onClose', () => ctx.indexRuns.close());
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
  if (ctx.readOnly) app.addHook('onRequest', readOnlyGuard(ctx.readOnly));
  if (options.currentDb) app.addHook('onRequest', snapshotGuard(ctx, options.currentDb));
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new HttpError(429, 'rate_limited', `too many requests; try again in ${Math.ceil(context.ttl / 1000)} s`),
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string; validation?: unknown }, _request, reply) => {
    const send = (code: ApiErrorCode, message: string) => reply.status(API_ERRORS[code].status).send(errorBody(code, message));
    if (error instanceof HttpError) return send(error.code, error.message);
    if (error instanceof RootError) return send(FOLDER_PROBLEM_CODES[error.problem], error.message);
    if (error instanceof IndexBusyError) return send(error.code, error.message);
    if (error.validation) return send('invalid_request', error.message);
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    // A framework's 4xx (Fastify's FST_ERR_* codes, a plugin's): our code and message, never theirs.
    if (status < 500) {
      const code = frameworkErrorCode(error);
      return send(code, FRAMEWORK_MESSAGES[code] ?? 'the request could not be parsed');
    }
    // 5xx hide internals: the message could hold a path or worse. A database the owner can
    // act on (disk full, damaged) is named, without its path.
    const known = describeDatabaseError(error);
    if (known) {
      process.stderr.write(`database error (${known.code})\n`);
      return send(known.code, known.message);
    }
    process.stderr.write(`internal error (${error.name})\n`);
    return send('internal', 'internal error');
  });

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
    return reply.status(404).send(errorBody('not_found', 'no such endpoint'));
  });
  return app;
}
