import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { sessionText } from '../support/session-transcripts';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-filerow-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A file's row is written whole by one statement (migration 015): nothing of an earlier read survives a failure. */
describe('a file row', () => {
  it('holds the compact columns for a transcript, and none of them once the file fails', async () => {
    const root = join(tmp, 'projects');
    const file = join(root, 'a.jsonl');
    execFileSync('mkdir', ['-p', root]);
    writeFileSync(file, sessionText('tool_call', 'FILEROWCANARY', { idPrefix: 'a' }));
    const db = openDatabase(join(tmp, 'i.db'));
    addRoot(db, root);
    const row = () =>
      db
        .prepare(
          `SELECT f.status, length(f.fingerprint) AS fingerprint_bytes, f.format, k.name AS session_end, c.version IS NOT NULL AS end_cell,
                  f.first_row_ms IS NOT NULL AS first_row, f.row_span_ms >= 0 AS span, f.indexed_ms > 0 AS indexed
           FROM files f LEFT JOIN session_end_kinds k ON k.id = f.session_end_kind LEFT JOIN cells c ON c.id = f.session_end_cell`,
        )
        .get();
    await indexDatabase(db, { analyser: 'inline' });
    expect(row()).toEqual({ status: 'ok', fingerprint_bytes: 16, format: null, session_end: 'tool_call', end_cell: 1, first_row: 1, span: 1, indexed: 1 });
    // The same name becomes a FIFO: a failed entry, written without reading it.
    rmSync(file);
    execFileSync('mkfifo', [file]);
    await indexDatabase(db, { analyser: 'inline' });
    expect(row()).toEqual({ status: 'failed', fingerprint_bytes: 0, format: null, session_end: null, end_cell: 0, first_row: 0, span: null, indexed: 1 });
    db.close();
  });
});
