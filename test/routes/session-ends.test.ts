import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_ENDS } from '../../shared/session-ends';
import { type TestApp, testApp } from '../support/api-app';
import { newCanary } from '../support/canary-transcripts';
import { sessionText } from '../support/session-transcripts';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-ends-api-'));
const canary = newCanary();
let t: TestApp;

beforeAll(async () => {
  const project = join(tmp, 'root', 'project');
  mkdirSync(project, { recursive: true });
  // One session per class on 2.1.90, two more said_nothing on 2.1.59, and a file still being written (no class).
  for (const [i, end] of SESSION_ENDS.entries()) writeFileSync(join(project, `s${i}.jsonl`), sessionText(end, canary, { idPrefix: `p${i}` }));
  for (const n of [1, 2]) writeFileSync(join(project, `old${n}.jsonl`), sessionText('said_nothing', canary, { version: '2.1.59', idPrefix: `o${n}` }));
  writeFileSync(join(project, 'writing.jsonl'), `${sessionText('lost_call', canary, { idPrefix: 'w' })}{"type":"assi`);
  t = await testApp([join(tmp, 'root')]);
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

const zero = Object.fromEntries(SESSION_ENDS.map((e) => [e, 0]));

describe('GET /api/session-ends', () => {
  it('counts how sessions end per version, in version order, without files still being written', async () => {
    const r = await t.get('/api/session-ends?dimension=version');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      dimension: 'version',
      rows: [
        { agent: 'claude-code', version: '2.1.59', sessions: 2, ends: { ...zero, said_nothing: 2 } },
        { agent: 'claude-code', version: '2.1.90', sessions: SESSION_ENDS.length, ends: Object.fromEntries(SESSION_ENDS.map((e) => [e, 1])) },
      ],
    });
  });

  it('by model and by day; subagent transcripts only when asked', async () => {
    expect((await t.get('/api/session-ends?dimension=model')).json.rows).toEqual([
      { model: 'claude-opus-4-8', sessions: SESSION_ENDS.length + 2, ends: { ...Object.fromEntries(SESSION_ENDS.map((e) => [e, 1])), said_nothing: 3 } },
    ]);
    expect((await t.get('/api/session-ends?dimension=day')).json.rows.map((r: { day: string }) => r.day)).toEqual(['2026-11-30']);
    expect((await t.get('/api/session-ends?sidechain=sidechain')).json.rows).toEqual([]);
    expect((await t.get('/api/session-ends?sidechain=all')).json.rows).toHaveLength(2);
  });

  it('refuses an unknown dimension and carries no payload', async () => {
    expect((await t.get('/api/session-ends?dimension=cwd')).status).toBe(400);
    for (const d of ['version', 'model', 'day']) expect((await t.get(`/api/session-ends?dimension=${d}`)).body).not.toContain(canary);
  });
});
