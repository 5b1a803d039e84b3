import type { FastifyRequest, RouteOptions } from 'fastify';
import { HttpError } from './http-error';

/**
 * Numbers in a URL are plain decimal: digits only (an optional minus; a `number` may have a
 * decimal fraction), at most 15 digits. The schema's coercion would otherwise take `0x10` as 16,
 * `1e309` and `Infinity` as Infinity (which passes an integer check and failed later as a 500),
 * and `context=Infinity` would be clamped silently. Checked on the raw string, before the
 * schema's bounds, for every query and path parameter a route's schema types as a number.
 */
const INTEGER = /^-?(0|[1-9][0-9]{0,14})$/;
const DECIMAL = /^-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,15})?$/;

interface PropertySchema {
  type?: unknown;
}

function numericFields(schema: unknown): Map<string, RegExp> {
  const out = new Map<string, RegExp>();
  const properties = (schema as { properties?: Record<string, PropertySchema> } | undefined)?.properties ?? {};
  for (const [name, p] of Object.entries(properties)) {
    if (p.type === 'integer') out.set(name, INTEGER);
    else if (p.type === 'number') out.set(name, DECIMAL);
  }
  return out;
}

/** Adds the check to a route whose query or path parameters include numbers (an onRoute hook). */
export function checkNumericParams(route: RouteOptions): void {
  const query = numericFields(route.schema?.querystring);
  const params = numericFields(route.schema?.params);
  if (query.size === 0 && params.size === 0) return;
  const check = async (request: FastifyRequest) => {
    for (const [where, fields, values] of [
      ['query parameter', query, request.query],
      ['path parameter', params, request.params],
    ] as const) {
      for (const [name, pattern] of fields) {
        const value = (values as Record<string, unknown> | undefined)?.[name];
        if (value === undefined) continue;
        for (const v of [value].flat()) {
          if (typeof v !== 'string' || !pattern.test(v)) {
            throw new HttpError(
              400,
              'invalid_request',
              `${where} ${name} must be a ${pattern === INTEGER ? 'whole number' : 'number'} written in decimal digits (at most 15)`,
            );
          }
        }
      }
    }
  };
  route.preValidation = [route.preValidation ?? []].flat().concat(check) as RouteOptions['preValidation'];
}
