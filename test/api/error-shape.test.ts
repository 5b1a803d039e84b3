import { join } from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openDatabase } from '../../server/store/database';
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
    ['unknown root', { url: '/api/roots/999', method: 'DELETE', headers: { 'x-tcf-token': TOKEN } }, 404, 'not_found'],
    [
      'malformed JSON body',
      { url: '/api/roots', method: 'POST', headers: { 'x-tcf-token': TOKEN, 'content-type': 'application/json' }, payload: '{"path":' },
      400,
      'fst_err_ctp_invalid_json_body',
    ],
  ] as const)('%s → %i %s', async (_label, req, status, code) => {
    const r = await t.app.inject({ method: 'GET', ...req, headers: { host: HOST, ...('headers' in req ? req.headers : {}) } } as never);
    expect(r.statusCode).toBe(status);
    const body = r.json();
    expect(Value.Check(ErrorBody, body)).toBe(true);
    expect(body.error).toMatchObject({ statusCode: status, code });
  });

  it('a 5xx hides its internals', async () => {
    const db = openDatabase(':memory:');
    const app = await buildApp({ db, token: TOKEN, allowedHosts: [HOST] });
    db.close(); // every query now throws, with a message that names internals
    const r = await app.inject({ url: '/api/summary', headers: { host: HOST } });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ error: { statusCode: 500, code: 'internal', message: 'internal error' } });
    await app.close();
  });
});
