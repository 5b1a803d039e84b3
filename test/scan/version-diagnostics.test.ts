import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { analyseFile } from '../../server/detect/analyse-file';
import { getVersionDiagnostics } from '../../server/query/get-version-diagnostics';
import { openDatabase } from '../../server/store/database';
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
    await indexDatabase(db, { analyser: 'inline' });
    const d = getVersionDiagnostics(db);
    db.close();
    expect(d).toEqual([
      { agent: 'claude-code', version: '2.1.1', text_rows: 1, tool_use_rows: 1, text_rows_per_tool_use_row: 1, unknown_row_types: [], unknown_block_types: [] },
      {
        agent: 'claude-code',
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

describe('call diagnostics reach the index (migration 006)', () => {
  it('writes compaction splits, calls open at the end, rejected input by kind and unknown system subtypes per file and version', async () => {
    const { cpSync, mkdirSync } = await import('node:fs');
    const { fixturesRoot } = await import('../support/detector-fixtures');
    const dir = join(tmp, 'calls');
    mkdirSync(dir);
    for (const [folder, file] of [
      ['orphan_tool_use', 'negative-compaction-with-progress.jsonl'],
      ['orphan_tool_use', 'negative-compaction-without-progress.jsonl'],
      ['orphan_tool_use', 'negative-open-at-end-with-progress.jsonl'],
      ['unparseable_tool_input', 'transcript-negative-ordinary-input.jsonl'],
    ]) {
      cpSync(join(fixturesRoot, 'detectors', folder!, file!), join(dir, file!));
    }
    writeFileSync(join(dir, 'subtypes.jsonl'), `${JSON.stringify({ type: 'system', subtype: 'brand_new_subtype', version: '2.1.300' })}\n`);
    const db = openDatabase(join(tmp, 'calls.db'));
    addRoot(db, dir);
    await indexDatabase(db, { analyser: 'inline' });
    const rows = db
      .prepare<
        [],
        {
          rel_path: string;
          version: string;
          compaction_splits: number;
          calls_open_at_end: number;
          rejected_tool_input: string;
          unknown_system_subtypes: string;
        }
      >(
        // An empty object is stored as NULL (migration 015).
        `SELECT f.rel_path, d.version, d.compaction_splits, d.calls_open_at_end, coalesce(d.rejected_tool_input, '{}') AS rejected_tool_input,
                coalesce(d.unknown_system_subtypes, '{}') AS unknown_system_subtypes
         FROM file_diagnostics d JOIN files f ON f.id = d.file_id ORDER BY f.rel_path, d.version`,
      )
      .all();
    db.close();
    expect(rows).toEqual([
      {
        rel_path: 'negative-compaction-with-progress.jsonl',
        version: '2.1.209',
        compaction_splits: 1,
        calls_open_at_end: 0,
        rejected_tool_input: '{}',
        unknown_system_subtypes: '{}',
      },
      {
        rel_path: 'negative-compaction-without-progress.jsonl',
        version: '2.1.209',
        compaction_splits: 1,
        calls_open_at_end: 0,
        rejected_tool_input: '{}',
        unknown_system_subtypes: '{}',
      },
      {
        rel_path: 'negative-open-at-end-with-progress.jsonl',
        version: '2.1.209',
        compaction_splits: 0,
        calls_open_at_end: 1,
        rejected_tool_input: '{}',
        unknown_system_subtypes: '{}',
      },
      {
        rel_path: 'subtypes.jsonl',
        version: '2.1.300',
        compaction_splits: 0,
        calls_open_at_end: 0,
        rejected_tool_input: '{}',
        unknown_system_subtypes: '{"brand_new_subtype":1}',
      },
      {
        rel_path: 'transcript-negative-ordinary-input.jsonl',
        version: '2.1.209',
        compaction_splits: 0,
        calls_open_at_end: 0,
        rejected_tool_input: '{"other":1}',
        unknown_system_subtypes: '{}',
      },
    ]);
  });
});
