import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { HOST, type TestApp, TOKEN, testApp } from '../support/api-app';

// Two complete rows on one line (a Claude Code writer bug after an unclean shutdown), then a good turn.
const row = (o: object) => JSON.stringify({ sessionId: 's', version: '2.1.100', timestamp: '2026-05-01T10:00:00.000Z', ...o });
const assistant = (id: string, line: number) =>
  row({
    type: 'assistant',
    uuid: `a${line}`,
    message: { id, model: 'claude-opus-4-8', role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: 'done' }] },
  });
const user = (line: number) => row({ type: 'user', uuid: `u${line}`, message: { role: 'user', content: 'go' } });

describe('per-folder salvage setting (PATCH /api/folders/:id)', () => {
  let t: TestApp;
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tcf-salvage-'));
    writeFileSync(join(folder, 'damaged.jsonl'), `${user(1)}\n${assistant('msg_1', 2)}${user(3)}\n${assistant('msg_2', 4)}\n`);
    t = await testApp([folder]);
  });
  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const patch = (id: number | string, payload: unknown, headers: Record<string, string> = { 'x-tcf-token': TOKEN }) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/folders/${id}`,
      headers: { host: HOST, 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(payload),
    });

  it('is off by default: the damaged file fails closed and counts nowhere', async () => {
    const roots = (await t.get('/api/folders')).json.rows;
    expect(roots).toHaveLength(1);
    expect(roots[0]).toMatchObject({ salvage: false, files: 1, files_failed: 1 });
    expect((await t.get('/api/summary')).json).toMatchObject({ assistant_messages: 0, files_salvaged: 0 });
    expect((await t.get('/api/files')).json.rows).toMatchObject([{ file: 'damaged.jsonl', status: 'failed', error_code: 'concatenated_rows', error_line: 2 }]);
    expect((await t.get('/api/files?status=salvaged')).json.rows).toEqual([]);
  });

  it('turned on, the next index run reads the complete rows of the damaged file', async () => {
    const r = await patch(1, { salvage: true });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id: 1, salvage: true });
    await indexDatabase(t.db, { analyser: 'inline' });
    expect((await t.get('/api/folders')).json.rows[0]).toMatchObject({ salvage: true, files_failed: 0 });
    expect((await t.get('/api/summary')).json.assistant_messages).toBe(2);
    expect(t.db.prepare('SELECT salvaged FROM files').pluck().get()).toBe(1);
  });

  it('lists the salvaged file as a state of its own (status=salvaged), counted in the summary and the evidence report', async () => {
    const salvaged = await t.get('/api/files?status=salvaged');
    expect(salvaged.status).toBe(200);
    expect(salvaged.json.rows).toEqual([
      {
        id: expect.any(Number),
        folder_id: 1,
        folder: expect.any(String),
        file: 'damaged.jsonl',
        agent: 'claude-code',
        status: 'salvaged',
        error_code: 'concatenated_rows',
        error_line: 2,
        damaged_lines: 1,
        size: expect.any(Number),
        indexed_at: expect.any(String),
        format_hint: null,
        gone_since: null,
        first_day: null,
      },
    ]);
    // Not a problem (it is counted), so the default list is empty; the folder filter applies.
    expect((await t.get('/api/files')).json.rows).toEqual([]);
    expect((await t.get('/api/files?status=salvaged&folder=1')).json.rows).toHaveLength(1);
    expect((await t.get('/api/summary')).json.files_salvaged).toBe(1);
    const report = await t.get('/api/export?format=json');
    expect(report.json.scanned).toMatchObject({ files_ok: 1, files_salvaged: 1 });
    expect((await t.get('/api/export?format=md')).body).toContain('- Salvaged: 1 of the files read were damaged');
    expect((await t.get('/api/files?status=damaged')).status).toBe(400);
  });

  it('refuses a forged request, an unknown folder and a body that is not the setting', async () => {
    expect((await patch(1, { salvage: false }, {})).statusCode).toBe(403);
    expect((await patch(1, { salvage: false }, { 'x-tcf-token': TOKEN, origin: 'http://evil.example' })).statusCode).toBe(403);
    expect((await patch(99, { salvage: true })).statusCode).toBe(404);
    expect((await patch(1, { salvage: 'yes' })).statusCode).toBe(400);
    expect((await patch(1, { salvage: true, path: '/' })).statusCode).toBe(400);
    expect((await t.get('/api/folders')).json.rows[0].salvage).toBe(true);
  });
});
