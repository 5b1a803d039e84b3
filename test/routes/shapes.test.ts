import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { type TestApp, testApp } from '../support/api-app';

/**
 * The API's shapes, checked on every GET endpoint the server registers (a new one is checked too):
 * snake_case keys, no generic `key`, no retired word in a key (the store's `root`, the old `scan` of
 * an index run: the glossary's folder and index run instead), and every top-level list under `rows`
 * except the second collections the README names.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-shapes-'));
let t: TestApp;
beforeAll(async () => {
  generateDemoCorpus({ out: join(tmp, 'corpus'), seed: 5, sessions: 30, canary: 'SHAPECANARY' });
  t = await testApp([join(tmp, 'corpus/projects')]);
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Objects keyed by data (a format, a detail name, a session-end class), not by field names. */
const DATA_KEYED = new Set(['files_by_format', 'files_refused_by_code', 'details', 'ends']);
/** Top-level lists that are not the response's main collection, as the README says. */
const OTHER_LISTS: Record<string, string[]> = {
  '/api/timeline': ['version_markers', 'codes', 'quiet_codes'],
  '/api/versions': ['codes', 'quiet_codes'],
  '/api/version-models': ['codes', 'quiet_codes'],
  '/api/regressions': ['verdicts'],
  '/api/files': ['unknown_rows'],
  // One record each, not a list: their arrays are fields of that record.
  '/api/summary': ['codes'],
  '/api/findings/:id': ['lines', 'source_lines', 'block_types', 'chain', 'session'],
};
/** Not JSON API shapes: the event stream, and the evidence report (a document with its own versioned format). */
const NOT_CHECKED = new Set(['/api/index-runs/events', '/api/export']);

function keysOf(value: unknown, path: string, out: Array<[string, string]>): void {
  if (Array.isArray(value)) for (const v of value) keysOf(v, `${path}[]`, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([path, k]);
      if (!DATA_KEYED.has(k)) keysOf(v, `${path}.${k}`, out);
    }
  }
}

describe('every GET endpoint has the one API shape', () => {
  it('snake_case keys in the glossary words, rows name their dimension, lists under rows', async () => {
    const routes = (t.app as unknown as { routeList: string[] }).routeList
      .filter((r) => r.startsWith('GET /api/'))
      .map((r) => r.slice(4))
      .filter((r) => !NOT_CHECKED.has(r));
    const finding = (await t.get('/api/findings?limit=500')).json.rows.find((f: { id: string }) => f.id) as { id: string };
    const session = (await t.get(`/api/findings/${finding.id}`)).json.session_hash as string;
    const fill = (route: string) =>
      route
        .replace(':id', finding.id)
        .replace(':hash', session)
        .concat(route === '/api/compare' ? '?a=2.1.36..2.1.39&b=2.1.40' : '');
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      const r = await t.get(fill(route));
      expect(r.status, route).toBe(200);
      const keys: Array<[string, string]> = [];
      keysOf(r.json, '', keys);
      for (const [where, k] of keys) {
        expect(k, `${route} ${where}`).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(k, `${route} ${where}: a row names its dimension`).not.toBe('key');
        expect(k, `${route} ${where}: folder and index run, not root and scan`).not.toMatch(/root|scan/);
      }
      const lists = Object.entries(r.json as Record<string, unknown>)
        .filter(([, v]) => Array.isArray(v))
        .map(([k]) => k);
      for (const k of lists) expect(['rows', ...(OTHER_LISTS[route] ?? [])], `${route}: list ${k}`).toContain(k);
    }
  });
});
