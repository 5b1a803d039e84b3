import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../support/api-app';
import { fixturesRoot } from '../support/detector-fixtures';

// One folder, two copies of the same lost-call transcript: one as written (version 2.1.40),
// one with the version removed from every row, so its messages and finding have no version.
const tmp = mkdtempSync(join(tmpdir(), 'tcf-unknown-'));
const fixture = readFileSync(join(fixturesRoot, 'detectors/missing_tool_use_block/positive-split-rows-stop-on-last.jsonl'), 'utf8');
let t: TestApp;
beforeAll(async () => {
  mkdirSync(join(tmp, 'folder', 'known'), { recursive: true });
  mkdirSync(join(tmp, 'folder', 'unversioned'), { recursive: true });
  writeFileSync(join(tmp, 'folder', 'known', 'a.jsonl'), fixture);
  const stripped = fixture.replaceAll('"version":"2.1.40",', '').replaceAll('"s-1"', '"s-2"').replaceAll('msg_01A', 'msg_09Z');
  expect(stripped).not.toContain('"version"');
  writeFileSync(join(tmp, 'folder', 'unversioned', 'b.jsonl'), stripped);
  t = await testApp([join(tmp, 'folder')]);
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('unknown: null in JSON, `unknown` in filters, never an empty string', () => {
  it('a version that was not recorded is null in every row', async () => {
    const versions = (await t.get('/api/versions')).json.rows as Array<{ version: string | null; assistant_messages: number }>;
    expect(versions.map((r) => r.version)).toEqual(['2.1.40', null]);
    expect(versions[0]!.assistant_messages).toBe(versions[1]!.assistant_messages);
    const findings = (await t.get('/api/findings')).json.rows as Array<{ version: string | null }>;
    expect(findings.map((f) => f.version).sort()).toEqual(['2.1.40', null].sort());
    const cross = (await t.get('/api/version-models')).json.rows as Array<{ version: string | null }>;
    expect(cross.map((r) => r.version)).toContain(null);
    for (const url of ['/api/versions', '/api/findings', '/api/version-models', '/api/diagnostics', '/api/session-ends', '/api/timeline']) {
      expect((await t.get(url)).body, url).not.toMatch(/"(version|model|day|week)":""/);
    }
  });

  it('version=unknown selects exactly those, in rates, findings and the summary', async () => {
    const rows = (await t.get('/api/versions?version=unknown')).json.rows;
    expect(rows).toHaveLength(1);
    expect(rows[0].version).toBeNull();
    const found = (await t.get('/api/findings?version=unknown')).json;
    expect(found.total).toBe(1);
    expect(found.rows[0].version).toBeNull();
    const all = (await t.get('/api/summary')).json;
    const unknown = (await t.get('/api/summary?version=unknown')).json;
    expect(unknown.assistant_messages * 2).toBe(all.assistant_messages);
    expect((await t.get('/api/summary?version=unknown,2.1.40')).json.assistant_messages).toBe(all.assistant_messages);
  });

  it('an empty `version=` is refused, never read as unknown', async () => {
    expect((await t.get('/api/findings?version=')).status).toBe(400);
  });
});
