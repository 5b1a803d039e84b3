import { join } from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app/build-app';
import { openDatabase } from '../../server/store/database';
import { API_ERRORS, type ApiErrorCode } from '../../shared/api-errors';
import { ErrorBody } from '../../shared/api-schemas';
import { HOST, type TestApp, TOKEN, testApp } from '../support/api-app';
import { fixturesRoot } from '../support/detector-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await testApp([join(fixturesRoot, 'detectors/missing_tool_use_block')]);
});
afterAll(() => t.close());

describe('one error shape for every error', () => {
  it.each([
    ['unknown endpoint', { url: '/api/nope' }, 404, 'not_found'],
    ['invalid query', { url: '/api/summary?from=yesterday' }, 400, 'invalid_request'],
    ['unknown query value', { url: '/api/timeline?bucket=month' }, 400, 'invalid_request'],
    ['forged host', { url: '/api/summary', headers: { host: 'evil.example' } }, 403, 'forbidden_host'],
    ['missing token', { url: '/api/index-runs', method: 'POST' }, 403, 'missing_token'],
    ['unknown folder', { url: '/api/folders/999', method: 'DELETE', headers: { 'x-tcf-token': TOKEN } }, 404, 'not_found'],
    [
      'malformed JSON body',
      { url: '/api/folders', method: 'POST', headers: { 'x-tcf-token': TOKEN, 'content-type': 'application/json' }, payload: '{"path":' },
      400,
      'bad_request',
    ],
    [
      'empty JSON body',
      { url: '/api/folders', method: 'POST', headers: { 'x-tcf-token': TOKEN, 'content-type': 'application/json' }, payload: '' },
      400,
      'bad_request',
    ],
    [
      'body too large',
      {
        url: '/api/folders',
        method: 'POST',
        headers: { 'x-tcf-token': TOKEN, 'content-type': 'application/json' },
        payload: JSON.stringify({ path: 'x'.repeat(20_000) }),
      },
      413,
      'payload_too_large',
    ],
    [
      'unsupported media type',
      { url: '/api/folders', method: 'POST', headers: { 'x-tcf-token': TOKEN, 'content-type': 'application/xml' }, payload: '<path/>' },
      415,
      'unsupported_media_type',
    ],
    ['unknown method on a known path', { url: '/api/summary', method: 'PUT', headers: { 'x-tcf-token': TOKEN } }, 404, 'not_found'],
    ['invalid finding id', { url: '/api/findings/not-an-id' }, 400, 'invalid_request'],
    ['no such finding', { url: '/api/findings/1-0123456789abcdef' }, 404, 'no_such_finding'],
    ['no such session', { url: '/api/sessions/0123456789abcdef' }, 404, 'no_such_session'],
    ['bad cursor', { url: '/api/findings?cursor=abc' }, 400, 'bad_cursor'],
    [
      'missing folder',
      { url: '/api/folders', method: 'POST', headers: { 'x-tcf-token': TOKEN }, payload: { path: '/no/such/folder/here' } },
      400,
      'folder_not_found',
    ],
  ] as const)('%s → %i %s', async (_label, req, status, code) => {
    const r = await t.app.inject({ method: 'GET', ...req, headers: { host: HOST, ...('headers' in req ? req.headers : {}) } } as never);
    expect(r.statusCode).toBe(status);
    const body = r.json();
    expect(Value.Check(ErrorBody, body)).toBe(true);
    expect(body.error).toMatchObject({ status_code: status, code });
    // Our code, from the one list, with the status the list gives it; never a framework's.
    expect(API_ERRORS[code as ApiErrorCode]?.status).toBe(status);
    expect(r.body).not.toMatch(/fst_err|FST_ERR|statusCode/);
  });

  it('a 5xx hides its internals', async () => {
    const db = openDatabase(':memory:');
    const app = await buildApp({ db, token: TOKEN, allowedHosts: [HOST] });
    db.close(); // every query now throws, with a message that names internals
    const r = await app.inject({ url: '/api/summary', headers: { host: HOST } });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ error: { status_code: 500, code: 'internal', message: 'internal error' } });
    await app.close();
  });
});
