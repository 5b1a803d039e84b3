import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../support/api-app';
import { newCanary } from '../support/canary-transcripts';
import { writeContextFixtures } from '../support/context-fixtures';

// Two copies of one transcript (a project folder copied, a session saved twice) are one session:
// the view names the second a copy and counts its turns, calls and errors once.
const tmp = mkdtempSync(join(tmpdir(), 'tcf-session-copies-'));
let t: TestApp;

beforeAll(async () => {
  const root = writeContextFixtures(tmp, newCanary());
  mkdirSync(join(root, '-home-user-project-copy'));
  cpSync(join(root, '-home-user-project', 'compaction.jsonl'), join(root, '-home-user-project-copy', 'compaction.jsonl'));
  t = await testApp([root]);
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('GET /api/sessions/:hash with a copied transcript', () => {
  it('lists both files, names the later one a copy, and counts the session once', async () => {
    const rows = (await t.get('/api/findings?limit=500')).json.rows as Array<{ id: string; file: string }>;
    const finding = rows.find((f) => f.file.endsWith('compaction.jsonl'))!;
    const hash = (await t.get(`/api/findings/${finding.id}`)).json.session_hash as string;
    const s = (await t.get(`/api/sessions/${hash}`)).json;
    expect(s.rows.map((f: { role: string }) => f.role)).toEqual(['main', 'copy']);
    expect(s.rows[0].turns).toBe(2);
    expect(s.rows[1].turns).toBe(2);
    // One copy's worth, as for the file alone (finding-context.test.ts): not 4 turns, 2 calls, 2 errors, 2 compactions.
    expect(s.totals).toMatchObject({ turns: 2, calls: 1, errors: 1, compactions: 1 });
  });
});
