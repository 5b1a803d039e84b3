/**
 * `npm run bench:opencode [-- --mb 1024 --rounds 3]`: reading OpenCode's database against reading the same sessions as files
 * (issue 38: "no more than reading the same sessions as files; a no-change re-index under a second"). Builds
 * `opencode.db` of about `--mb` MB (WAL mode, OpenCode's tables, fixtures/make-opencode-db.mjs's DDL) and the same
 * sessions as `opencode export` files (`<session>.json`, pretty-printed as OpenCode prints them), then indexes each
 * into a fresh database (worker threads as `index` chooses them) and again with nothing changed, `--rounds` times
 * interleaved (files, database, files, …), and prints each round's wall and CPU (all threads) with the paired ratios.
 * Each session: user prompts, assistant steps with reasoning, text and tool calls (one `invalid` call per session).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
// @ts-expect-error: a plain ES module of the fixture generators, without types
import { OPENCODE_DDL, rowsOf } from '../../fixtures/make-opencode-db.mjs';
import { indexDatabase } from '../../server/app/index-database';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const targetMb = arg('mb', 1024);
const rounds = arg('rounds', 1);
const tmp = mkdtempSync(join(tmpdir(), 'tcf-bench-opencode-'));

/** Deterministic filler text (a linear congruential generator over words), so two runs build the same corpus. */
let seed = 7;
const WORDS = 'the a tool call file read edit bash output line error result model step plan test build run change'.split(' ');
const filler = (words: number) => {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[seed % WORDS.length]!);
  }
  return out.join(' ');
};

function session(s: number) {
  const id = `ses_${String(s).padStart(8, '0')}`;
  let n = 0;
  const next = (p: string) => `${p}_${String(s).padStart(8, '0')}${String(n++).padStart(5, '0')}`;
  const t0 = 1780300000000 + s * 3_600_000;
  const messages: unknown[] = [];
  for (let turn = 0; turn < 10; turn++) {
    const u = next('msg');
    messages.push({
      info: { role: 'user', time: { created: t0 + n * 1000 }, agent: 'build', model: { providerID: 'p', modelID: 'kimi-k2' }, id: u, sessionID: id },
      parts: [{ type: 'text', text: filler(60), id: next('prt'), sessionID: id, messageID: u }],
    });
    for (let step = 0; step < 3; step++) {
      const a = next('msg');
      const invalid = turn === 0 && step === 0;
      const tool = invalid
        ? {
            tool: 'invalid',
            state: {
              status: 'completed',
              input: { tool: 'bash', error: 'JSON parsing failed' },
              output: filler(20),
              metadata: {},
              title: 'Invalid Tool',
              time: { start: 1, end: 2 },
            },
          }
        : {
            tool: 'bash',
            state: { status: 'completed', input: { command: filler(8) }, output: filler(400), metadata: {}, title: 'bash', time: { start: 1, end: 2 } },
          };
      messages.push({
        info: {
          role: 'assistant',
          modelID: 'kimi-k2',
          providerID: 'p',
          mode: 'build',
          time: { created: t0 + n * 1000 },
          finish: 'tool-calls',
          id: a,
          sessionID: id,
        },
        parts: [
          { type: 'step-start', id: next('prt'), sessionID: id, messageID: a },
          { type: 'reasoning', text: filler(200), time: { start: 1, end: 2 }, id: next('prt'), sessionID: id, messageID: a },
          { type: 'text', text: filler(100), time: { start: 1, end: 2 }, id: next('prt'), sessionID: id, messageID: a },
          { type: 'tool', callID: `functions.bash:${step}`, ...tool, id: next('prt'), sessionID: id, messageID: a },
          { type: 'step-finish', reason: 'tool-calls', cost: 0, id: next('prt'), sessionID: id, messageID: a },
        ],
      });
    }
  }
  return {
    info: {
      id,
      slug: 'calm-fox',
      projectID: 'p1',
      directory: '/home/bench/project',
      title: filler(5),
      version: '1.14.28',
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
      time: { created: t0, updated: t0 + n * 1000 },
    },
    messages,
  };
}

async function timeIndex(folder: string): Promise<{ fresh: number; freshCpu: number; again: number; files: number; findings: number }> {
  const dir = mkdtempSync(join(tmp, 'index-'));
  const db = openDatabase(join(dir, 'index.db'));
  addRoot(db, folder);
  const cpu = process.cpuUsage();
  let t = performance.now();
  const first = await indexDatabase(db, { analyser: 'auto' });
  const fresh = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  const freshCpu = (used.user + used.system) / 1e6;
  t = performance.now();
  const second = await indexDatabase(db, { analyser: 'auto' });
  const again = (performance.now() - t) / 1000;
  if (second.filesChanged !== 0 || first.filesFailed !== 0) throw new Error(`unexpected run: ${JSON.stringify({ first, second })}`);
  const findings = db.prepare('SELECT count(*) FROM findings').pluck().get() as number;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return { fresh, freshCpu, again, files: first.filesChanged, findings };
}

try {
  const exports = join(tmp, 'exports');
  const native = join(tmp, 'native');
  mkdirSync(exports);
  mkdirSync(native);
  const writer = new Database(join(native, 'opencode.db'));
  writer.pragma('journal_mode = WAL');
  writer.exec(OPENCODE_DDL);
  writer.prepare("INSERT INTO project (id, worktree, time_created, time_updated) VALUES ('p1', '/', 0, 0)").run();
  const insert = (table: string, row: Record<string, unknown>) =>
    writer
      .prepare(
        `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
          .map((k) => `@${k}`)
          .join(', ')})`,
      )
      .run(row);
  let exportBytes = 0;
  let sessions = 0;
  const t0 = performance.now();
  while (exportBytes < targetMb * 1024 * 1024) {
    const doc = session(sessions);
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    writeFileSync(join(exports, `${doc.info.id}.json`), text);
    exportBytes += text.length;
    const rows = rowsOf(doc);
    writer.transaction(() => {
      insert('session', rows.session);
      for (const m of rows.messages) insert('message', m);
      for (const p of rows.parts) insert('part', p);
    })();
    sessions++;
  }
  writer.close();
  const dbBytes = statSync(join(native, 'opencode.db')).size;
  console.log(
    `${sessions} sessions: exports ${(exportBytes / 1e6).toFixed(0)} MB, opencode.db ${(dbBytes / 1e6).toFixed(0)} MB (built in ${((performance.now() - t0) / 1000).toFixed(1)} s); load average ${loadavg()[0]!.toFixed(2)} at start`,
  );
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const all: { files: Awaited<ReturnType<typeof timeIndex>>; database: Awaited<ReturnType<typeof timeIndex>> }[] = [];
  console.log(
    '| round | files: fresh wall (s) / CPU (s) | opencode.db: fresh wall / CPU | database / files, wall / CPU | re-index, nothing changed: files / database (s) |',
  );
  console.log('| --- | --- | --- | --- | --- |');
  for (let r = 1; r <= rounds; r++) {
    const files = await timeIndex(exports);
    const database = await timeIndex(native);
    if (files.files !== database.files || files.findings !== database.findings)
      throw new Error(`the two layouts differ: ${JSON.stringify({ files, database })}`);
    all.push({ files, database });
    console.log(
      `| ${r} | ${files.fresh.toFixed(2)} / ${files.freshCpu.toFixed(2)} | ${database.fresh.toFixed(2)} / ${database.freshCpu.toFixed(2)} | ${(database.fresh / files.fresh).toFixed(2)}× / ${(database.freshCpu / files.freshCpu).toFixed(2)}× | ${files.again.toFixed(3)} / ${database.again.toFixed(3)} |`,
    );
  }
  const wallRatio = median(all.map((a) => a.database.fresh / a.files.fresh));
  const cpuRatio = median(all.map((a) => a.database.freshCpu / a.files.freshCpu));
  console.log(`median database / files: wall ${wallRatio.toFixed(2)}×, CPU ${cpuRatio.toFixed(2)}×; load average ${loadavg()[0]!.toFixed(2)} at end`);
  console.log(
    JSON.stringify({
      sessions,
      export_bytes: exportBytes,
      db_bytes: dbBytes,
      rounds: all.map((a) => ({
        files_fresh_s: a.files.fresh,
        files_cpu_s: a.files.freshCpu,
        files_again_s: a.files.again,
        db_fresh_s: a.database.fresh,
        db_cpu_s: a.database.freshCpu,
        db_again_s: a.database.again,
      })),
      findings: all[0]!.database.findings,
    }),
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
