import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { newCanary } from '../support/canary-transcripts';
import { dumpIndex } from '../support/db-dump';
import { sessionRows, sessionText } from '../support/session-transcripts';
import { waitUntil } from '../support/wait-until';
import { watchedIndexes } from '../support/watched-index';

const { tmp, watched } = watchedIndexes('tcf-watchswap-');
const canary = newCanary();

/** The files, messages and findings a fresh full index of `root` holds now. */
async function freshDump(name: string, root: string) {
  const db = openDatabase(join(tmp, `${name}.db`));
  try {
    addRoot(db, root);
    await indexDatabase(db, { analyser: 'inline' });
    return dumpIndex(db);
  } finally {
    db.close();
  }
}

describe('the watcher keeps a watched index equal to a fresh one', () => {
  it('lists a file replaced by a FIFO as failed not_regular_file, as a fresh index does, instead of dropping it', async () => {
    const root = join(tmp, 'fifo-root');
    mkdirSync(join(root, 'p'), { recursive: true });
    writeFileSync(join(root, 'p', 'keep.jsonl'), sessionText('text_answer', canary, { idPrefix: 'keep' }));
    writeFileSync(join(root, 'p', 'swapped.jsonl'), sessionText('lost_call', canary, { idPrefix: 'swap' }));
    // Reconciliation off: the watch alone must get it right.
    const { db } = await watched('fifo-live', root, { reconcileMs: 0 });
    const rowOf = () =>
      db
        .prepare<[], { status: string; error_code: string | null; findings: number }>(
          "SELECT status, error_code, findings FROM files WHERE rel_path = 'p/swapped.jsonl'",
        )
        .get();
    expect(rowOf()).toMatchObject({ status: 'ok', findings: 1 });
    unlinkSync(join(root, 'p', 'swapped.jsonl'));
    expect(spawnSync('mkfifo', [join(root, 'p', 'swapped.jsonl')]).status).toBe(0);
    await waitUntil(() => rowOf()?.status === 'failed', 10_000, 'the FIFO to be listed as failed');
    expect(rowOf()).toEqual({ status: 'failed', error_code: 'not_regular_file', findings: 0 });
    // The update ends with the denominators, rebuilt off the event loop: equal once it is done.
    const fresh = await freshDump('fifo-fresh', root);
    await waitUntil(() => JSON.stringify(dumpIndex(db)) === JSON.stringify(fresh), 10_000, 'the denominators').catch(() => {});
    expect(dumpIndex(db)).toEqual(fresh);
  });

  it('after a folder -> link -> folder swap race, a reconciliation makes it equal, and the re-armed watch hears later appends', async () => {
    const root = join(tmp, 'race-root');
    const outside = join(tmp, 'race-outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 's.jsonl'), sessionText('lost_call', canary, { idPrefix: 'outside' }));
    const FOLDERS = 20;
    for (let i = 0; i < FOLDERS; i++) {
      mkdirSync(join(root, `d${i}`), { recursive: true });
      writeFileSync(join(root, `d${i}`, 's.jsonl'), sessionText('text_answer', canary, { idPrefix: `a${i}` }));
    }
    // Periodic reconciliation off: this test calls it once, then checks the watch alone.
    const { db, watcher } = await watched('race-live', root, { reconcileMs: 0 });
    // `mv d d.x; ln -s outside d; rm d; mv d.x d`, in another process, for every folder, for a bounded time,
    // while every folder's file is appended to.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const [root, outside, n, ms] = process.argv.slice(1); const end = Date.now() + Number(ms);
         while (Date.now() < end) for (let i = 0; i < Number(n); i++) { const d = root + '/d' + i;
           try { fs.renameSync(d, d + '.x'); fs.symlinkSync(outside, d); fs.unlinkSync(d); fs.renameSync(d + '.x', d); } catch {} }`,
        root,
        outside,
        String(FOLDERS),
        '10000',
      ],
      { stdio: 'ignore' },
    );
    const swapped = new Promise((resolve) => swapper.on('close', resolve));
    let round = 0;
    const append = (prefix: string) => {
      for (let i = 0; i < FOLDERS; i++) {
        try {
          appendFileSync(join(root, `d${i}`, 's.jsonl'), `${sessionRows('lost_call', canary, { idPrefix: `${prefix}${i}-${round}` }).join('\n')}\n`);
        } catch {
          // mid-swap: the folder is elsewhere this instant (or the link: the outside file grows, never read)
        }
      }
      round++;
    };
    const appender = setInterval(() => append('b'), 200);
    await swapped;
    clearInterval(appender);
    // Quiet, then the changes made after the race: a watch that lost a folder never hears these.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (let i = 0; i < FOLDERS; i++) appendFileSync(join(root, `d${i}`, 's.jsonl'), `${sessionRows('lost_call', canary, { idPrefix: `c${i}` }).join('\n')}\n`);
    const fresh = await freshDump('race-fresh-1', root);
    // The watch gets its chance first, then one reconciliation (a stat walk) for whatever it missed.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await (watcher as unknown as { reconcile?: () => Promise<number> }).reconcile?.();
    await waitUntil(() => JSON.stringify(dumpIndex(db)) === JSON.stringify(fresh), 15_000, 'the watched index to equal a fresh one').catch(() => {});
    expect(dumpIndex(db)).toEqual(fresh);

    // Later appends are heard by the watch itself (no reconciliation from here on).
    for (let i = 0; i < FOLDERS; i++) appendFileSync(join(root, `d${i}`, 's.jsonl'), `${sessionRows('lost_call', canary, { idPrefix: `e${i}` }).join('\n')}\n`);
    const later = await freshDump('race-fresh-2', root);
    await waitUntil(() => JSON.stringify(dumpIndex(db)) === JSON.stringify(later), 15_000, 'the later appends').catch(() => {});
    expect(dumpIndex(db)).toEqual(later);
  }, 90_000);

  it('a folder the watch lost (as after the swap race) is found by reconciliation, and the root re-armed hears it again', async () => {
    const root = join(tmp, 'lost-root');
    mkdirSync(join(root, 'p'), { recursive: true });
    writeFileSync(join(root, 'p', 'a.jsonl'), sessionText('text_answer', canary, { idPrefix: 'lost-a' }));
    const { db, watcher } = await watched('lost-live', root, { reconcileMs: 0 });
    let rearmed = 0;
    watcher.on('rearmed', () => rearmed++);
    // What the race leaves behind, made certain: the folder's watch is gone (folder-watch.ts).
    const folders = (watcher as unknown as { watchers: Map<number, { watcher: { drop(rel: string): void } }> }).watchers.values().next().value!.watcher;
    folders.drop('p');
    appendFileSync(join(root, 'p', 'a.jsonl'), `${sessionRows('lost_call', canary, { idPrefix: 'lost-b' }).join('\n')}\n`);
    writeFileSync(join(root, 'p', 'new.jsonl'), sessionText('lost_call', canary, { idPrefix: 'lost-c' }));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const fresh = await freshDump('lost-fresh-1', root);
    expect(dumpIndex(db), 'the watch missed them').not.toEqual(fresh);
    expect(await (watcher as unknown as { reconcile?: () => Promise<number> }).reconcile?.()).toBeGreaterThan(0);
    expect(rearmed).toBe(1);
    await waitUntil(() => JSON.stringify(dumpIndex(db)) === JSON.stringify(fresh), 10_000, 'the reconciled index').catch(() => {});
    expect(dumpIndex(db)).toEqual(fresh);
    // The re-armed watch hears the folder again: no reconciliation from here on.
    appendFileSync(join(root, 'p', 'new.jsonl'), `${sessionRows('lost_call', canary, { idPrefix: 'lost-d' }).join('\n')}\n`);
    const later = await freshDump('lost-fresh-2', root);
    await waitUntil(() => JSON.stringify(dumpIndex(db)) === JSON.stringify(later), 10_000, 'the later append').catch(() => {});
    expect(dumpIndex(db)).toEqual(later);
  });

  it('a reconciliation finds nothing, and re-arms nothing, when the watch missed nothing', async () => {
    const root = join(tmp, 'calm-root');
    mkdirSync(join(root, 'p'), { recursive: true });
    writeFileSync(join(root, 'p', 'a.jsonl'), sessionText('text_answer', canary, { idPrefix: 'calm' }));
    writeFileSync(join(root, 'p', 'bad.jsonl'), '{not json\n');
    expect(spawnSync('mkfifo', [join(root, 'p', 'fifo.jsonl')]).status).toBe(0);
    const { watcher } = await watched('calm-live', root, { reconcileMs: 0 });
    let rearmed = 0;
    watcher.on('rearmed', () => rearmed++);
    expect(await watcher.reconcile()).toBe(0);
    expect(rearmed).toBe(0);
  });
});
