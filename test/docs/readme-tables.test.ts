import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FINDING_OPPORTUNITY, NOT_MEASURABLE_REASON, OPPORTUNITIES } from '../../shared/denominators';
import { FINDING_CODES } from '../../shared/finding-codes';
import { OPPORTUNITY_WORDS } from '../../shared/format/opportunity-words';
import { SCAN_ERROR_CODES } from '../../shared/scan-errors';

const root = join(import.meta.dirname, '../..');
const doc = (file: string) => readFileSync(join(root, file), 'utf8');

/** The text of a `## heading` section of a Markdown file, up to the next `## `. */
function docSection(file: string, heading: string): string {
  const text = doc(file);
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, `${file} has a "## ${heading}" section`).toBeGreaterThan(-1);
  return text.slice(start + 1).split('\n## ')[0]!;
}

/** First-column codes of the markdown tables of a section. */
function tableCodes(file: string, heading: string): string[] {
  return [...docSection(file, heading).matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]!);
}

describe('the README is a user document', () => {
  const readme = doc('README.md');
  it('is at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });
  it('names every code in its table', () => {
    const table = docSection('README.md', 'What it finds');
    for (const code of FINDING_CODES) expect(table, code).toContain(`\`${code}\``);
  });
  it('points only at reference documents that exist', () => {
    const named = [...docSection('README.md', 'Where to read more').matchAll(/`([\w/.-]+\.md)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(5);
    for (const file of named) expect(existsSync(join(root, file)), file).toBe(true);
  });
});

describe('the reference documents stay complete', () => {
  it('server/detect/README.md documents every detector, and nothing that is not one', () => {
    expect(tableCodes('server/detect/README.md', 'Detectors').sort()).toEqual([...FINDING_CODES].sort());
  });
  it('server/scan/README.md documents every scan error code', () => {
    expect(tableCodes('server/scan/README.md', 'Fail closed').sort()).toEqual([...SCAN_ERROR_CODES].sort());
  });
  it('server/query/README.md gives every code the denominator shared/denominators.ts gives it', () => {
    const rows = [
      ...docSection('server/query/README.md', 'Denominators: every rate over its own opportunities').matchAll(
        /^\| `(\w+)` \| ([^|]+) \| `(\w+)` \| (.+) \|$/gm,
      ),
    ];
    expect(rows.map((r) => r[1]).sort()).toEqual([...OPPORTUNITIES].sort());
    for (const [, opportunity, words, reason, codes] of rows) {
      const o = opportunity as (typeof OPPORTUNITIES)[number];
      expect(words, o).toBe(OPPORTUNITY_WORDS[o]);
      expect(reason, o).toBe(NOT_MEASURABLE_REASON[o]);
      const listed = [...codes!.matchAll(/`(\w+)`/g)].map((m) => m[1]!).sort();
      expect(listed, o).toEqual(FINDING_CODES.filter((code) => FINDING_OPPORTUNITY[code] === o).sort());
    }
  });
});

describe('server/routes/README.md documents the API', () => {
  it('lists every endpoint in its API table, and only those', async () => {
    const { buildApp } = await import('../../server/app/build-app');
    const { openDatabase } = await import('../../server/store/database');
    const db = openDatabase(':memory:');
    const app = await buildApp({ db, token: 't', allowedHosts: [] });
    await app.ready();
    const routes = (app as unknown as { routeList: string[] }).routeList.filter((r) => r.includes(' /api/')).sort();
    await app.close();
    db.close();
    const section = docSection('server/routes/README.md', 'Dashboard and API');
    const documented = [...section.matchAll(/^\| `((?:GET|POST|PATCH|PUT|DELETE) \/api\/[^`]*)` \|/gm)].map((m) => m[1]!).sort();
    expect(documented).toEqual(routes);
  });
});
