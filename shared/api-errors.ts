import type { ErrorBody } from './api-schemas';

/**
 * Every error code the API can send, with its HTTP status and meaning: the one list. The
 * server's error helpers accept only these codes (a new one fails to compile until it is listed
 * here), and a test checks server/routes/README.md's error table against this list. Framework errors
 * (Fastify's `FST_ERR_*`, the HTTP parser's) are mapped to these and never leak.
 */
export const API_ERRORS = {
  bad_request: { status: 400, meaning: 'the request could not be parsed: malformed JSON body, empty body with a JSON content type, bad URL' },
  invalid_request: { status: 400, meaning: 'a parameter or body field failed its schema (the message names which)' },
  bad_cursor: { status: 400, meaning: 'the findings cursor is not one this server gave out' },
  bad_side: { status: 400, meaning: 'a side of a comparison (`a`, `b`) names an unknown version or day range, or the sides are reversed or overlap' },
  folder_not_found: { status: 400, meaning: 'adding a folder: it does not exist' },
  not_directory: { status: 400, meaning: 'adding a folder: the path is not a folder' },
  symlink: { status: 400, meaning: 'adding a folder: the path is a symbolic link (links are never followed)' },
  symlink_parent: { status: 400, meaning: 'adding a folder: a folder on the path is a symbolic link' },
  unreadable: { status: 400, meaning: 'adding a folder: it cannot be read' },
  overlapping_folder: { status: 400, meaning: 'adding a folder: it is inside, or contains, a folder already added' },
  filesystem_root: { status: 400, meaning: 'adding a folder: the filesystem root cannot be a folder' },
  forbidden_host: { status: 403, meaning: 'the Host header is not this server’s own loopback address (DNS rebinding)' },
  forbidden_origin: { status: 403, meaning: 'a state-changing request from another site or origin' },
  missing_token: { status: 403, meaning: 'a state-changing request without Origin lacks the launch token (`x-tcf-token`)' },
  not_found: { status: 404, meaning: 'no such endpoint (or no such method on it), or no folder with this id' },
  no_such_finding: { status: 404, meaning: 'no finding has this id (the file may have changed and been indexed again)' },
  no_such_session: { status: 404, meaning: 'no indexed file belongs to this session' },
  request_timeout: { status: 408, meaning: 'the request was not received in time' },
  index_running: { status: 409, meaning: 'an index run is under way (this server’s, or a CLI `index` writing the database): wait for it to end' },
  read_only: {
    status: 409,
    meaning:
      'the index is read-only: the server opened it without writing (`serve --read-only`, or its file or folder cannot be written), so adding, changing or removing a folder and starting an index run are refused; or a write found the database (or its folder) read-only',
  },
  payload_too_large: { status: 413, meaning: 'the request body is larger than 16 KB' },
  unsupported_media_type: { status: 415, meaning: 'a request body that is not `application/json`' },
  rate_limited: { status: 429, meaning: 'too many index runs started in a minute' },
  headers_too_large: { status: 431, meaning: 'the request headers are too large' },
  internal: { status: 500, meaning: 'an unexpected server error (details are never sent; stderr names its kind)' },
  index_changed: {
    status: 503,
    meaning:
      'another process is writing a read-only index the server reads as a snapshot (a folder it cannot write), and its changes are not merged yet: try again when it finishes; `/api/health` still answers',
  },
  disk_full: { status: 503, meaning: 'the disk holding the index database is full' },
  corrupt: { status: 503, meaning: 'the index database is damaged or is not one' },
  busy: { status: 503, meaning: 'another process held the index database locked for too long' },
  future_schema: { status: 503, meaning: 'the index database was written by a newer version of this tool' },
  cannot_open: { status: 503, meaning: 'the index database cannot be opened or read' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;

export const API_ERROR_CODES = Object.keys(API_ERRORS) as ApiErrorCode[];

export function isApiErrorCode(code: string): code is ApiErrorCode {
  return Object.hasOwn(API_ERRORS, code);
}

/** The one error shape every endpoint returns, built in one place; the status is the code's own. */
export function errorBody(code: ApiErrorCode, message: string): ErrorBody {
  return { error: { status_code: API_ERRORS[code].status, code, message } };
}
