import type { ApiErrorCode } from '../../shared/api-errors';

/** An error the one error handler turns into the shared error shape with this status and code (a code of shared/api-errors.ts). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function httpError(statusCode: number, code: ApiErrorCode, message: string): HttpError {
  return new HttpError(statusCode, code, message);
}
