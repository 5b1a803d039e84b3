import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { API_ERRORS, type ApiErrorCode, errorBody } from '../../shared/api-errors';
import { describeDatabaseError } from '../store/database';
import { IndexBusyError } from '../store/index-lock';
import { RootError, type RootProblem } from '../store/roots';
import { HttpError } from './http-error';
import { allowedHost, SECURITY_HEADERS } from './request-guard';

/**
 * Every error the server sends has our shape and one of our codes (shared/api-errors.ts): what a route throws,
 * what the framework or a plugin raises (Fastify's FST_ERR_* codes never leak), what Node's HTTP parser refuses,
 * and a 5xx that says only what the owner can act on.
 */

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

/** Errors raised before routing (a URL that cannot be decoded…): our shape and headers, never the URL back, and a forged Host still gets its 403. */
export function frameworkErrors(allowedHosts: string[]) {
  return (error: FastifyError, request: FastifyRequest, anyReply: unknown) => {
    const reply = anyReply as unknown as FastifyReply;
    reply.headers(SECURITY_HEADERS);
    if (!allowedHost(allowedHosts, request.headers.host)) {
      return reply.status(403).send(errorBody('forbidden_host', 'this server only answers to its own loopback address'));
    }
    const code = frameworkErrorCode(error);
    return reply.status(API_ERRORS[code].status).send(errorBody(code, FRAMEWORK_MESSAGES[code] ?? 'the request could not be parsed'));
  };
}

/** Refused by Node's HTTP parser (headers too large: 431, garbage): answered in the same shape on the raw socket. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
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
}

/** The error handler of every route: our code and message for what we know, `internal` for the rest. */
export function errorHandler(error: Error & { statusCode?: number; code?: string; validation?: unknown }, _request: FastifyRequest, reply: FastifyReply) {
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
}
