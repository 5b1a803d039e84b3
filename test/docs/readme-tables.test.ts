import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FINDING_CODES } from '../../shared/finding-codes';
import { SCAN_ERROR_CODES } from '../../shared/scan-errors';

const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');

/** First-column codes of the markdown table that follows a heading. */
function tableCodes(heading: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README has a "## ${heading}" section`).toBeGreaterThan(-1);
  const section = readme.slice(start + 1).split('\n## ')[0]!;
  return [...section.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]!);
}

describe('README stays complete', () => {
  it('documents every detector, and nothing that is not one', () => {
    expect(tableCodes('Detectors').sort()).toEqual([...FINDING_CODES].sort());
  });
  it('documents every scan error code', () => {
    expect(tableCodes('Fail closed').sort()).toEqual([...SCAN_ERROR_CODES].sort());
  });
});

describe('README documents the API', () => {
  it('lists every endpoint in its API table, and only those', async () => {
    const { buildApp } = await import('../../server/app');
    const { openDatabase } = await import('../../server/store/database');
    const db = openDatabase(':memory:');
    const app = await buildApp({ db, token: 't', allowedHosts: [] });
    await app.ready();
    const routes = (app as unknown as { routeList: string[] }).routeList.filter((r) => r.includes(' /api/')).sort();
    await app.close();
    db.close();
    const start = readme.indexOf('\n## Dashboard and API\n');
    expect(start).toBeGreaterThan(-1);
    const section = readme.slice(start + 1).split('\n## ')[0]!;
    const documented = [...section.matchAll(/^\| `((?:GET|POST|PATCH|PUT|DELETE) \/api\/[^`]*)` \|/gm)].map((m) => m[1]!).sort();
    expect(documented).toEqual(routes);
  });
});
