import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../shared/api-errors';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The security headers for answers written before any hook runs (a URL that cannot be
 * parsed, headers too large): the same policy helmet applies to every other answer.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-dns-prefetch-control': 'off',
  'cache-control': 'no-store',
};

/** Is this Host header one the server answers to. */
export function allowedHost(hosts: readonly string[], host: string | undefined): boolean {
  return hosts.includes((host ?? '').toLowerCase());
}

export interface GuardOptions {
  /**
   * Host header values this server answers to, e.g. `127.0.0.1:4319`, `localhost:4319`. Read on
   * every request, so the caller may fill it once the real port is known (port 0 in tests).
   */
  allowedHosts: string[];
  /** Per-launch token for state-changing requests that carry no Origin (curl, scripts). */
  token: string;
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Refuses what a foreign web page could forge. A Host that is not ours (DNS rebinding) gets
 * 403 on every request. A state-changing request must come from our own origin, or carry no
 * Origin at all (not a browser) and present the launch token; cross-site fetches and form
 * posts get 403. No CORS headers are ever sent, so other origins cannot read responses either.
 */
export function requestGuard(options: GuardOptions) {
  const hosts = options.allowedHosts;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!allowedHost(hosts, request.headers.host))
      return reply.status(403).send(errorBody('forbidden_host', 'this server only answers to its own loopback address'));
    if (!STATE_CHANGING.has(request.method)) return;
    const origin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
      return reply.status(403).send(errorBody('forbidden_origin', 'requests from other sites are refused'));
    }
    if (origin !== undefined) {
      if (!hosts.some((h) => origin.toLowerCase() === `http://${h}`))
        return reply.status(403).send(errorBody('forbidden_origin', 'requests from other origins are refused'));
      return;
    }
    const token = request.headers['x-tcf-token'];
    if (typeof token !== 'string' || !sameToken(token, options.token)) {
      return reply.status(403).send(errorBody('missing_token', 'send the launch token (printed at start) in the x-tcf-token header'));
    }
  };
}
