import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import { getVersionDiagnostics } from '../../server/query/get-version-diagnostics';
import { openDatabase } from '../../server/store/database';
import { indexRoots } from '../../server/store/index-roots';
import { addRoot } from '../../server/store/roots';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-diag-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const rows = [
  { type: 'user', version: '2.1.1', message: { role: 'user', content: 'hi' } },
  { type: 'assistant', version: '2.1.1', message: { id: 'm1', content: [{ type: 'text', text: 'a' }], stop_reason: null } },
  { type: 'assistant', version: '2.1.1', message: { id: 'm1', content: [{ type: 'tool_use', id: 't', name: 'X', input: {} }], stop_reason: 'tool_use' } },
  {
    type: 'assistant',
    version: '2.1.2',
    message: {
      id: 'm2',
      content: [
        { type: 'tool_use', id: 'u', name: 'X', input: {} },
        { type: 'fancy_new_block', x: 1 },
        { type: 'Secret Name', y: 2 },
      ],
      stop_reason: 'tool_use',
    },
  },
  { type: 'brand-new-row', version: '2.1.2' },
  { type: 'ANOTHER secret', version: '2.1.2' },
  { type: 'summary', summary: 's' },
];

describe('per-version diagnostics', () => {
  it('counts text and tool_use rows per version, and unknown row and block types by pattern-checked name', async () => {
    const dir = join(tmp, 'root');
    const file = join(dir, 's.jsonl');
    (await import('node:fs')).mkdirSync(dir);
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const a = analyseFile(file, { forIndex: true });
    expect(a.status).toBe('ok');
    const db = openDatabase(join(tmp, 'd.db'));
    addRoot(db, dir);
    await indexRoots(db, { analyser: 'inline' });
    const d = getVersionDiagnostics(db);
    db.close();
    expect(d).toEqual([
      { version: '2.1.1', text_rows: 1, tool_use_rows: 1, text_rows_per_tool_use_row: 1, unknown_row_types: [], unknown_block_types: [] },
      {
        version: '2.1.2',
        text_rows: 0,
        tool_use_rows: 1,
        text_rows_per_tool_use_row: 0,
        unknown_row_types: [
          { type: 'brand-new-row', count: 1 },
          { type: 'other', count: 1 },
        ],
        unknown_block_types: [
          { type: 'fancy_new_block', count: 1 },
          { type: 'other', count: 1 },
        ],
      },
    ]);
  });
});
