import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newCanary } from '../support/canary-transcripts';
import { sessionRows, sessionText } from '../support/session-transcripts';
import { waitUntil } from '../support/wait-until';
import { watchedIndexes } from '../support/watched-index';

const { tmp, watched } = watchedIndexes('tcf-watchfolders-');
const canary = newCanary();

/** The inotify watches this process holds, as the kernel lists them (each is one `inotify wd:` line of an inotify descriptor). */
function inotifyWatches(): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      n += (readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').match(/^inotify wd:/gm) ?? []).length;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

const FOLDERS = 3;
const FILES_PER_FOLDER = 150;

describe.runIf(process.platform === 'linux')('the watcher watches folders, never single files (issue 31, fault 4)', () => {
  it('holds one inotify watch per folder for hundreds of files, and still hears appends, new files and new folders', async () => {
    const root = join(tmp, 'root');
    for (let f = 0; f < FOLDERS; f++) {
      mkdirSync(join(root, `p${f}`), { recursive: true });
      for (let i = 0; i < FILES_PER_FOLDER; i++)
        writeFileSync(join(root, `p${f}`, `s${i}.jsonl`), sessionText('text_answer', canary, { idPrefix: `p${f}s${i}` }));
    }
    mkdirSync(join(root, 'p0', 'sub'));
    writeFileSync(join(root, 'p0', 'sub', 'deep.jsonl'), sessionText('text_answer', canary, { idPrefix: 'deep' }));
    const before = inotifyWatches();
    const { db, watcher } = await watched('w', root, { reconcileMs: 0, inlineWrites: true });
    // The root, p0..p2 and p0/sub: 5 folders, 451 files. A watch per file (chokidar's) would be 456.
    const folders = 1 + FOLDERS + 1;
    expect(watcher.watchCount()).toBe(folders);
    expect(inotifyWatches() - before).toBe(folders);

    const findingsOf = (rel: string) => db.prepare<[string], { findings: number }>('SELECT findings FROM files WHERE rel_path = ?').get(rel)?.findings ?? null;
    // An append to a file no watch of its own covers: heard through its folder's watch.
    appendFileSync(join(root, 'p1', 's7.jsonl'), `${sessionRows('lost_call', canary, { idPrefix: 'append' }).join('\n')}\n`);
    await waitUntil(() => findingsOf('p1/s7.jsonl') === 1, 10_000, 'the append');
    // A new file in a nested folder, then a new folder with a file in it.
    writeFileSync(join(root, 'p0', 'sub', 'new.jsonl'), sessionText('lost_call', canary, { idPrefix: 'new' }));
    await waitUntil(() => findingsOf('p0/sub/new.jsonl') === 1, 10_000, 'the new file');
    mkdirSync(join(root, 'q'));
    writeFileSync(join(root, 'q', 'fresh.jsonl'), sessionText('lost_call', canary, { idPrefix: 'fresh' }));
    await waitUntil(() => findingsOf('q/fresh.jsonl') === 1, 10_000, 'the file in a new folder');
    expect(watcher.watchCount()).toBe(folders + 1);
    expect(inotifyWatches() - before).toBe(folders + 1);
    // A folder removed: its watch is dropped.
    rmSync(join(root, 'p2'), { recursive: true });
    await waitUntil(() => watcher.watchCount() === folders, 10_000, 'the removed folder unwatched');
    await watcher.close();
    expect(inotifyWatches()).toBe(before);
  });
});
