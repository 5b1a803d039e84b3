import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, API_ERRORS, type ApiErrorCode, isApiErrorCode } from '../../shared/api-errors';

const root = join(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'server/routes/README.md'), 'utf8');

function serverSources(dir = join(root, 'server')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? serverSources(join(dir, e.name)) : e.name.endsWith('.ts') ? [readFileSync(join(dir, e.name), 'utf8')] : [],
  );
}

describe('the API error codes: one list, documented, and the only codes sent', () => {
  it("server/routes/README.md's error table is exactly shared/api-errors.ts, status by status", () => {
    const start = readme.indexOf('\n## API error codes\n');
    expect(start).toBeGreaterThan(-1);
    const section = readme.slice(start + 1).split('\n## ')[0]!;
    const rows = [...section.matchAll(/^\| `([a-z0-9_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]);
    expect(rows.map(([c]) => c).sort()).toEqual([...API_ERROR_CODES].sort());
    for (const [code, status] of rows) expect(status, String(code)).toBe(API_ERRORS[code as ApiErrorCode].status);
  });

  it('every code a route or guard names is listed, with the status the list gives it', () => {
    const named = serverSources().flatMap((text) => [
      ...[...text.matchAll(/(?:httpError|new HttpError)\((\d{3}), '([a-z_]+)'/g)].map((m) => ({ status: Number(m[1]), code: m[2]! })),
      ...[...text.matchAll(/errorBody\('([a-z_]+)'/g)].map((m) => ({ status: null, code: m[1]! })),
    ]);
    expect(named.length).toBeGreaterThan(10);
    for (const { status, code } of named) {
      expect(isApiErrorCode(code), code).toBe(true);
      if (status !== null) expect(status, code).toBe(API_ERRORS[code as ApiErrorCode].status);
    }
  });

  it('no Fastify code is ever a public code', () => {
    for (const code of API_ERROR_CODES) expect(code).toMatch(/^[a-z][a-z_]*$/);
    expect(API_ERROR_CODES.some((c) => c.startsWith('fst_'))).toBe(false);
  });
});
