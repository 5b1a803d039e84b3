import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { liveWritesInThread } from '../../server/app/index-thread';
import { IndexRunner } from '../../server/index/index-runner';
import { sameThreadWriter } from '../../server/live/index-files';
import { type LiveUpdate, RootWatcher } from '../../server/live/watch-folders';
import { openDatabase, openDatabaseQueryOnly } from '../../server/store/database';
import { prepareIndexStatements } from '../../server/store/index-statements';
import { sqliteIndexStore } from '../../server/store/index-store';
import { addRoot } from '../../server/store/roots';
import { newCanary } from '../support/canary-transcripts';
import { sessionRows, sessionText } from '../support/session-transcripts';
import { waitUntil } from '../support/wait-until';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-watchthread-'));
const canary = newCanary();
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the watcher's writes happen off the event loop's thread (issue 31)", () => {
  it('a watcher whose own connection cannot write (query_only) still indexes every change, through the writer thread', async () => {
    const root = join(tmp, 'root');
    mkdirSync(join(root, 'p'), { recursive: true });
    writeFileSync(join(root, 'p', 'a.jsonl'), sessionText('text_answer', canary, { idPrefix: 'a' }));
    const path = join(tmp, 'index.db');
    const setup = openDatabase(path);
    addRoot(setup, root);
    await indexDatabase(setup, { analyser: 'inline' });
    setup.close();

    // The connection the watcher (and so the event loop) has: any write on it throws.
    const db = openDatabaseQueryOnly(path);
    const rootRow = prepareIndexStatements(db).allRoots.all()[0]!;
    // The control: the same update on this thread's connection fails, so the test below can only pass off it.
    await expect(sameThreadWriter(db).indexFiles(rootRow, ['p/a.jsonl'], {})).rejects.toThrow();

    const watcher = new RootWatcher(db, new IndexRunner(sqliteIndexStore(db), 'inline'), {
      debounceMs: 50,
      reconcileMs: 0,
      writer: liveWritesInThread(db),
    });
    const updates: LiveUpdate[] = [];
    watcher.on('update', (u: LiveUpdate) => updates.push(u));
    await watcher.start();
    try {
      const findingsOf = (rel: string) =>
        db.prepare<[string], { findings: number; status: string }>('SELECT findings, status FROM files WHERE rel_path = ?').get(rel) ?? null;
      appendFileSync(join(root, 'p', 'a.jsonl'), `${sessionRows('lost_call', canary, { idPrefix: 'b' }).join('\n')}\n`);
      writeFileSync(join(root, 'p', 'new.jsonl'), sessionText('lost_call', canary, { idPrefix: 'c' }));
      await waitUntil(() => findingsOf('p/a.jsonl')?.findings === 1 && findingsOf('p/new.jsonl')?.findings === 1, 20_000, 'the changes indexed');
      // The thread's answer reaches the page as before: one new finding per file, after the writes it counts.
      await waitUntil(() => updates.flatMap((u) => u.new_findings).length === 2, 20_000, 'the live updates');
      expect(updates.reduce((n, u) => n + u.files_changed, 0)).toBe(2);
      expect(db.prepare('SELECT count(*) FROM files WHERE root_id = ?').pluck().get(rootRow.id)).toBe(2);
      // The reconciliation runs in the thread too: nothing missed, nothing found; a file deleted (kept as gone) is no difference either.
      expect(await watcher.reconcile()).toBe(0);
      rmSync(join(root, 'p', 'a.jsonl'));
      await waitUntil(() => db.prepare("SELECT gone_ms IS NOT NULL FROM files WHERE rel_path = 'p/a.jsonl'").pluck().get() === 1, 20_000, 'kept as gone');
      expect(await watcher.reconcile()).toBe(0);
      // A change the watch missed (its folder's watch dropped, as a race can leave it) is found by the thread's stat walk.
      (watcher as unknown as { watchers: Map<number, { watcher: { drop(rel: string): void } }> }).watchers.values().next().value!.watcher.drop('p');
      writeFileSync(join(root, 'p', 'missed.jsonl'), sessionText('lost_call', canary, { idPrefix: 'm' }));
      expect(await watcher.reconcile()).toBe(1);
      await waitUntil(() => findingsOf('p/missed.jsonl')?.findings === 1, 20_000, 'the missed file');
    } finally {
      await watcher.close();
      db.close();
    }
  });
});
