import type { ErrorBody } from './api-schemas';

/** The one error shape every endpoint returns, built in one place. */
export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { error: { statusCode, code, message } };
}
