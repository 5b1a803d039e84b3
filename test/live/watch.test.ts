import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { startServer } from '../../server/app/serve';
import type { LiveUpdate } from '../../server/live/watch-folders';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { newCanary } from '../support/canary-transcripts';
import { dumpIndex } from '../support/db-dump';
import { sessionRows, sessionText } from '../support/session-transcripts';
import { collectEvents, waitUntil } from '../support/wait-until';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-live-'));
const root = join(tmp, 'projects');
const project = join(root, '-home-dev-project');
const canary = newCanary();
let server: Awaited<ReturnType<typeof startServer>>;
let origin: string;
let stream: ReturnType<typeof collectEvents>;

beforeAll(async () => {
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'clean.jsonl'), sessionText('text_answer', canary, { idPrefix: 'clean' }));
  writeFileSync(join(project, 'grows.jsonl'), sessionText('tool_call', canary, { idPrefix: 'grows' }));
  server = await startServer({ port: 0, db: join(tmp, 'live.db'), webRoot: null, log: () => {}, dirs: [root] });
  origin = `http://127.0.0.1:${server.port}`;
  const response = await fetch(`${origin}/api/index-runs/events`);
  stream = collectEvents(response.body!);
});

afterAll(async () => {
  await stream?.stop();
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: the test reads JSON bodies
const get = async (path: string): Promise<any> => (await fetch(`${origin}${path}`)).json();
const findingsOf = async (file: string) =>
  ((await get('/api/findings?limit=500')).rows as Array<{ id: string; file: string; code: string }>).filter((f) => f.file.endsWith(file));
const liveEvents = () => stream.events.filter((e) => e.event === 'live').map((e) => e.data as LiveUpdate);

describe('serve watches its folders', () => {
  it('a new session with a lost call reaches /api/findings and the event stream within seconds, with no reload', async () => {
    const db = openDatabase(join(tmp, 'live.db'));
    const cleanIndexedAt = () => db.prepare<[], { indexed_ms: number }>("SELECT indexed_ms FROM files WHERE rel_path LIKE '%clean.jsonl'").get()!.indexed_ms;
    const before = cleanIndexedAt();
    expect(await findingsOf('lost.jsonl')).toEqual([]);
    writeFileSync(join(project, 'lost.jsonl'), sessionText('lost_call', canary, { idPrefix: 'lost' }));
    const found = await waitUntil(
      async () => {
        const f = await findingsOf('lost.jsonl');
        return f.length > 0 && f;
      },
      5000,
      'the finding in the API',
    );
    expect(found.map((f) => f.code)).toEqual(['missing_tool_use_block']);
    const event = await waitUntil(() => liveEvents().find((e) => e.new_findings.some((n) => n.id === found[0]!.id)), 15_000, 'the live event');
    expect(event.new_findings).toEqual([{ id: found[0]!.id, code: 'missing_tool_use_block' }]);
    // Only the changed file was read again: no full rescan.
    expect(cleanIndexedAt()).toBe(before);
    db.close();
  });

  it('an appended file is followed, and a line still being written keeps the last complete state', async () => {
    const path = join(project, 'grows.jsonl');
    appendFileSync(path, sessionRows('lost_call', canary, { idPrefix: 'grows2' }).slice(1).join('\n') + '\n');
    const found = await waitUntil(
      async () => {
        const f = await findingsOf('grows.jsonl');
        return f.some((x) => x.code === 'missing_tool_use_block') && f;
      },
      5000,
      'the finding of the appended rows',
    );
    // The next row arrives in two writes: between them the file is followed, not failed, and keeps its findings.
    const next = sessionRows('text_answer', canary, { idPrefix: 'grows3' })[0]!;
    const waited = new Promise((resolve) => server.watcher!.once('still-writing', resolve));
    appendFileSync(path, next.slice(0, 50));
    await waited;
    expect(await findingsOf('grows.jsonl')).toEqual(found);
    expect((await get('/api/folders')).rows[0].files_in_progress).toBe(0);
    appendFileSync(path, `${next.slice(50)}\n`);
    const update = await waitUntil(
      () => liveEvents().find((e) => e.files_changed > 0 && e.findings_added > 0 && e.new_findings.length === 0),
      5000,
      'the completed line',
    );
    expect(update.findings_removed).toBe(update.findings_added);
    expect((await findingsOf('grows.jsonl')).map((f) => f.code)).toEqual(found.map((f) => f.code));
  });

  it('a truncated file loses the findings of the rows cut off; a deleted file keeps them, as gone (issue 27)', async () => {
    const path = join(project, 'grows.jsonl');
    truncateSync(path, Buffer.byteLength(sessionText('tool_call', canary, { idPrefix: 'grows' })));
    await waitUntil(async () => (await findingsOf('grows.jsonl')).length === 0, 15_000, 'the truncated file to lose its finding');
    const lost = await findingsOf('lost.jsonl');
    expect(lost.length).toBeGreaterThan(0);
    unlinkSync(join(project, 'lost.jsonl'));
    const gone = await waitUntil(
      async () => {
        const rows = (await get('/api/files?status=gone')).rows as Array<{ file: string }>;
        return rows.length > 0 && rows;
      },
      15_000,
      'the deleted file to be gone',
    );
    expect(gone.map((r) => r.file)).toEqual(['-home-dev-project/lost.jsonl']);
    const update = await waitUntil(() => liveEvents().find((e) => e.files_removed > 0), 15_000, 'a live event for the removal');
    expect(update.findings_removed).toBe(0);
    expect(await findingsOf('lost.jsonl')).toEqual(lost);
    expect((await get('/api/folders')).rows[0]).toMatchObject({ files: 3, files_gone: 1 });
  });

  it('never follows a symbolic link, to a file or a folder', async () => {
    const outside = join(tmp, 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'elsewhere.jsonl'), sessionText('lost_call', canary, { idPrefix: 'out' }));
    symlinkSync(join(outside, 'elsewhere.jsonl'), join(project, 'link.jsonl'));
    symlinkSync(outside, join(root, 'linked-folder'));
    // A real new file after the links: once it is indexed, the links' events were handled too.
    mkdirSync(join(root, 'new-project'));
    writeFileSync(join(root, 'new-project', 'new.jsonl'), sessionText('lost_call', canary, { idPrefix: 'new' }));
    await waitUntil(async () => (await findingsOf('new.jsonl')).length > 0, 15_000, 'the new folder to be indexed');
    const files = (await get('/api/findings?limit=500')).rows.map((f: { file: string }) => f.file);
    expect(files.filter((f: string) => f.includes('link'))).toEqual([]);
    expect(files.filter((f: string) => !f.endsWith('lost.jsonl'))).toEqual(['new-project/new.jsonl']);
  });

  it('leaves an index equal to a full index of the same folder, and no payload in what the page was sent', async () => {
    await waitUntil(async () => (await get('/api/folders')).rows[0].files === 4, 15_000, 'three files and the gone one');
    // Forgotten, the gone file leaves what a full index of the folder holds.
    // 409 index_running while the watcher holds the index (it never waits): asked again until it is free.
    const forgot = await waitUntil(
      async () => {
        const r = await fetch(`${origin}/api/forget`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-tcf-token': server.token },
          body: JSON.stringify({ gone: true }),
        });
        return r.status === 409 ? false : r.json();
      },
      15_000,
      'the forget to find the index free',
    );
    expect(forgot).toMatchObject({ forgotten: true, files: 1, files_gone: 1 });
    const live = openDatabase(join(tmp, 'live.db'));
    const fresh = openDatabase(join(tmp, 'fresh.db'));
    addRoot(fresh, root);
    await indexDatabase(fresh, { analyser: 'inline' });
    const ends = (db: typeof live) =>
      db
        .prepare(
          `SELECT f.rel_path, k.name, c.version, c.model, c.day
           FROM files f LEFT JOIN session_end_kinds k ON k.id = f.session_end_kind LEFT JOIN cells c ON c.id = f.session_end_cell
           ORDER BY f.rel_path`,
        )
        .raw()
        .all();
    expect(dumpIndex(live)).toEqual(dumpIndex(fresh));
    expect(ends(live)).toEqual(ends(fresh));
    expect(ends(live).map((r) => (r as unknown[])[1])).toEqual(['text_answer', 'tool_call', 'lost_call']);
    live.close();
    fresh.close();
    expect(JSON.stringify(stream.events)).not.toContain(canary);
    expect(JSON.stringify(stream.events)).not.toContain(tmp);
  });
});

describe('a folder added on the page', () => {
  it('is watched at once: a session written into it reaches /api/findings without an index run', async () => {
    const added = join(tmp, 'added');
    mkdirSync(join(added, '-home-dev-other'), { recursive: true });
    const runBefore = await get('/api/index-runs/current');
    const response = await fetch(`${origin}/api/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ path: added, label: 'added' }),
    });
    expect(response.status).toBe(201);
    const late = join(added, '-home-dev-other', 'late.jsonl');
    // Written again every second: the watcher becomes ready just after the response, and only then hears changes.
    let written = 0;
    await waitUntil(
      async () => {
        if (Date.now() - written > 1000) {
          writeFileSync(late, sessionText('lost_call', canary, { idPrefix: 'late' }));
          written = Date.now();
        }
        return (await findingsOf('late.jsonl')).length > 0;
      },
      15_000,
      'the new folder to be watched',
    );
    // The watcher found it, not an index run.
    expect(await get('/api/index-runs/current')).toEqual(runBefore);
  });
});
