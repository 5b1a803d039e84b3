import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport } from '../../server/cli/report-command';
import type { ScanReport } from '../../server/cli/scan-command';
import { unpainted } from '../../server/cli/terminal';
import { codeRate, type RateRow } from '../../server/query/get-rates';
import { FINDING_CODES } from '../../shared/finding-codes';
import { freePort } from '../reliability/support/read-only-server';
import { fixturesRoot } from '../support/detector-fixtures';
import { runCli } from '../support/run-cli';

const root = join(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'tcf-contract-'));
const db = join(tmp, 'demo.db');
beforeAll(() => {
  // The demo corpus holds a failed file, so `index` exits 2; the database is what the tests need.
  expect(runCli(['index', join(fixturesRoot, 'demo/projects'), '--db', db]).status).toBe(2);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * The demo indexed from eight copies (eight folders): output well over what the pipe (a socket pair, whose
 * buffers hold a few hundred KiB) takes, even from the sparse evidence report (format 2 grows with findings
 * only: one copy's JSON is ~107 KiB).
 */
let big: string | null = null;
function bigDb(): string {
  if (big) return big;
  big = join(tmp, 'demo-eight.db');
  const copies = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((c) => join(tmp, `copy-${c}`));
  for (const copy of copies) cpSync(join(fixturesRoot, 'demo/projects'), copy, { recursive: true });
  runCli(['index', ...copies, '--db', big]);
  return big;
}

/** Runs the CLI with its stdout read by a reader that closes after `bytes` bytes, like `| head -c 10`. */
function runIntoClosingReader(args: string[], bytes: number): Promise<{ status: number | null; got: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'server/cli/launch.mjs'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let got = Buffer.alloc(0);
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= bytes) child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, got: got.subarray(0, bytes).toString(), stderr }));
  });
}

describe('a closed stdout', () => {
  it.each([
    ['report --json', ['report', '--json']],
    ['export --format json', ['export', '--format', 'json']],
  ])('%s into a reader that closes after 10 bytes ends quietly with exit 0', async (_name, args) => {
    // The evidence report is sparse (it grows with findings): it needs the demo eight times over.
    const dbFor = args[0] === 'export' ? bigDb() : db;
    const full = runCli([...args, '--db', dbFor]);
    expect(full.status).toBe(0);
    // Larger than the pipe's buffers, so the writer really meets the closed pipe.
    expect(full.stdout.length).toBeGreaterThan(128 * 1024);
    const run = await runIntoClosingReader([...args, '--db', dbFor], 10);
    expect(run.got).toBe(full.stdout.slice(0, 10));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

describe('--version', () => {
  it('prints the version from package.json and exits 0', () => {
    const run = runCli(['--version']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}\n`);
    expect(run.stderr).toBe('');
  });

  it('after a command it is still the version filter', () => {
    const run = runCli(['report', '--db', db, '--version', '2.1.40']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^2\.1\.40 /m);
    expect(run.stdout).not.toMatch(/^2\.1\.39 /m);
  });
});

describe('usage errors: exit 2, one line on stderr naming the bad value and the accepted ones, nothing on stdout, no file', () => {
  const cases: Array<[string, string[], RegExp]> = [
    [
      'an unknown --code',
      ['report', '--code', 'missing_tool_use_blok'],
      /"missing_tool_use_blok".*missing_tool_use_block, empty_tool_input_with_error_result,/,
    ],
    ['a malformed --version', ['report', '--version', '2.1'], /--version "2\.1" is malformed: expected .*2\.1\.40/],
    [
      'a --version the index does not hold',
      ['report', '--version', '2.1.99'],
      /--version "2\.1\.99" is not in the index; it holds: 2\.1\.36, 2\.1\.37, .*2\.1\.42$/,
    ],
    ['a malformed --model', ['export', '--model', 'Claude Opus'], /--model "Claude Opus" is malformed: expected a model id \(at most 128 characters/],
    [
      'a --model the index does not hold',
      ['report', '--model', 'claude-opus-9'],
      /--model "claude-opus-9" is not in the index; it holds: claude-haiku-4-5, claude-opus-4-8, claude-sonnet-4-6$/,
    ],
    ['an unknown --sidechain', ['report', '--sidechain', 'subagent'], /--sidechain "subagent" is not one of: main, sidechain$/],
    ['an unknown --format', ['export', '--format', 'xml'], /--format "xml" is not one of: md, json$/],
    ['an unknown --files', ['export', '--files', 'hide'], /--files "hide" is not one of: keep, keep-session, pseudonymize, omit$/],
    ['a malformed --from', ['report', '--from', '2026-5-1'], /--from "2026-5-1" is not a UTC day: expected YYYY-MM-DD/],
    ['an impossible --to', ['export', '--to', '2026-02-30'], /--to "2026-02-30" is not a UTC day/],
    ['--from after --to', ['report', '--from', '2026-05-10', '--to', '2026-05-01'], /--from 2026-05-10 is after --to 2026-05-01/],
    ['an unknown option', ['report', '--colour'], /unknown option '--colour'/],
  ];
  it.each(cases)('%s', (_name, args, message) => {
    const out = join(tmp, `out-${Math.random().toString(36).slice(2)}.md`);
    const run = runCli([...args, '--db', db, ...(args[0] === 'export' ? ['--out', out] : [])]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.endsWith('\n')).toBe(true);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr.trimEnd()).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  it.each(['report', 'export'])('%s --db naming no file: refused, and no database created', (command) => {
    const missing = join(tmp, 'typo', 'index.db');
    const run = runCli([command, '--db', missing]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('error: --db: no such index database (this command never creates one; run `index <dir>` first)\n');
    expect(existsSync(join(tmp, 'typo'))).toBe(false);
  });

  it.each([
    ['a missing folder', 'no-such-folder', /^error: the folder does not exist$/],
    ['a file, not a folder', 'notes-file', /^error: the path is not a folder \(nor an OpenCode database, opencode\.db\)$/],
  ])('index of %s: refused in one line, and no database created', (_name, dir, message) => {
    writeFileSync(join(tmp, 'notes-file'), 'x');
    const fresh = join(tmp, 'index-refused', 'index.db');
    const run = runCli(['index', join(tmp, dir), '--db', fresh]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd()).toMatch(message);
    expect(existsSync(join(tmp, 'index-refused'))).toBe(false);
  });

  it('--db help names the default path whole', () => {
    const run = runCli(['index', '--help']);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain('else ~/.local/share/tool-call-forensics/index.db)');
  });

  it('verify --db naming no file: refused, and no database created', () => {
    const report = join(tmp, 'report.json');
    expect(runCli(['export', '--format', 'json', '--files', 'keep', '--db', db, '--out', report]).status).toBe(0);
    const run = runCli(['verify', report, join(fixturesRoot, 'demo/projects'), '--db', join(tmp, 'nope.db')]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: --db: no such index database/);
    expect(existsSync(join(tmp, 'nope.db'))).toBe(false);
  });

  it('without --db, report refuses a default index that does not exist and does not create it', () => {
    const home = join(tmp, 'xdg');
    const run = runCli(['report'], { env: { TCF_DB: '', XDG_DATA_HOME: home } });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^error: the default index \(see --help\): no such index database/);
    expect(existsSync(home)).toBe(false);
  });

  it('a --db that is not an index is refused in one line', () => {
    const notDb = join(tmp, 'notes.txt');
    writeFileSync(notDb, 'not a database, long enough to be read as one '.repeat(40));
    const run = runCli(['report', '--db', notDb]);
    expect(run.status).toBe(2);
    // Merged with the reliability work: the same one line also says what is wrong and what to do.
    expect(run.stderr).toBe(
      'error: --db: not an index database this tool can read (the index database is damaged or is not an index database: move it aside (or delete it) and index again)\n',
    );
  });

  it('read-only commands leave the database file as it was', () => {
    const before = readFileSync(db);
    expect(runCli(['report', '--db', db]).status).toBe(0);
    expect(runCli(['export', '--format', 'json', '--files', 'keep', '--db', db]).status).toBe(0);
    expect(readFileSync(db).equals(before)).toBe(true);
  });
});

describe('report fits COLUMNS', () => {
  const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));

  it.each([80, 200])('at COLUMNS=%i: one table per dimension, only the codes and rows with findings, every line within the width', (columns) => {
    const run = runCli(['report', '--db', db], { env: { COLUMNS: String(columns), FORCE_COLOR: '', NO_COLOR: '' } });
    expect(run.status).toBe(0);
    expect(widest(run.stdout)).toBeLessThanOrEqual(columns);
    expect(run.stdout).not.toContain('\x1b'); // not a terminal: no colour
    const lines = run.stdout.split('\n');
    expect(new Set(lines.flatMap((l) => /^Per (version|day|model)/.exec(l)?.[1] ?? []))).toEqual(new Set(['version', 'day', 'model']));
    expect(run.stdout).toContain("‰: per 1,000 of the code's");
    // The codes without findings are named once, in the list, not as columns.
    const none = run.stdout.slice(run.stdout.indexOf('Codes with no findings:'), run.stdout.indexOf('\n\n'));
    for (const code of ['text_leaked_tool_call', 'orphan_tool_use', 'input_mismatch']) {
      expect(none).toContain(code);
      expect(run.stdout.split(code)).toHaveLength(2);
    }
    // 2.1.40: 7 missing_tool_use_block over 210 messages with a stop reason = 33.3 per 1,000.
    expect(run.stdout).toMatch(/^2\.1\.40 +228 +210 +100% +7 +30\.7 +7 +33\.3/m);
    expect(run.stdout).toMatch(/^total +\d+/m);
    // What was left out is always said, zeros included.
    expect(run.stdout).toMatch(/^Files: 113 read, 0 of them salvaged \(read around damaged lines\); 0 empty/m);
    // The demo's cut file fails, or is being written when another test file has just touched it.
    expect(run.stdout.replaceAll(/\n +/g, ' ')).toMatch(/left out: (2 failed, 0|1 failed, 1) being written\./);
    if (columns === 200) expect(run.stdout).toMatch(/^ {2}missing_tool_use_block +per 1,000 messages with a recorded stop reason$/m);
  });

  it('pools the versions and days without findings into one "other" row whose figures are their sums; --all lists each', () => {
    const json = JSON.parse(runCli(['report', '--json', '--db', db]).stdout) as { by_version: RateRow[]; by_day: RateRow[] };
    const text = runCli(['report', '--db', db], { env: { COLUMNS: '200' } }).stdout;
    const all = runCli(['report', '--all', '--db', db], { env: { COLUMNS: '200' } }).stdout;
    for (const [dimension, rows] of [
      ['version', json.by_version],
      ['day', json.by_day],
    ] as const) {
      const quiet = rows.filter((r) => r.codes.every((c) => c.count === 0));
      const loud = rows.filter((r) => r.codes.some((c) => c.count > 0));
      expect(quiet.length, dimension).toBeGreaterThan(0);
      const table = text.slice(text.indexOf(`Per ${dimension}`), text.indexOf('\n\n', text.indexOf(`Per ${dimension}`)));
      const sum = (f: (r: RateRow) => number) => quiet.reduce((n, r) => n + f(r), 0);
      // other (N): messages, tool-use turns, then its findings (0) and rates over the pooled opportunities (0).
      expect(table).toMatch(new RegExp(`^other \\(${quiet.length}\\) +${sum((r) => r.assistant_messages)} +${sum((r) => r.tool_use_turns)} +100% +0 +0 `, 'm'));
      for (const r of loud) expect(table).toMatch(new RegExp(`^${r.key!.replaceAll('.', '\\.')} `, 'm'));
      for (const r of quiet) {
        expect(table).not.toMatch(new RegExp(`^${r.key!.replaceAll('.', '\\.')} `, 'm'));
        expect(all).toMatch(new RegExp(`^${r.key!.replaceAll('.', '\\.')} `, 'm'));
      }
    }
    expect(all).not.toMatch(/^other \(/m);
    // The total is over every row, pooled or not.
    expect(text).toMatch(new RegExp(`^total +${json.by_version.reduce((n, r) => n + r.assistant_messages, 0)} `, 'm'));
  });

  it('colours only when asked: FORCE_COLOR off a terminal colours, NO_COLOR wins over it', () => {
    const forced = runCli(['report', '--db', db], { env: { FORCE_COLOR: '1', NO_COLOR: '' } });
    expect(forced.stdout).toContain('\x1b[1m');
    expect(runCli(['report', '--db', db], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }).stdout).not.toContain('\x1b');
    // Colour never changes what fits: the visible text is the plain text.
    const plain = runCli(['report', '--db', db], { env: { FORCE_COLOR: '', NO_COLOR: '' } }).stdout;
    expect(unpainted(forced.stdout)).toBe(plain);
  });

  it('--wide gives every code and every day', () => {
    const run = runCli(['report', '--db', db, '--wide']);
    expect(run.status).toBe(0);
    for (const code of FINDING_CODES) expect(run.stdout).toContain(code);
    expect(run.stdout.match(/^2026-\d\d-\d\d /gm)!.length).toBeGreaterThan(30);
    expect(Math.max(...run.stdout.split('\n').map((l) => l.length))).toBeGreaterThan(100);
  });

  it('prints "not measurable" where a code has no opportunities, never a 0', () => {
    // Messages of versions that record no stop reason, and no stream captures.
    const d = { assistant_messages: 100, tool_use_turns: 90, stop_known_messages: 0, capture_messages: 0 };
    const row = (key: string) => ({
      key,
      ...d,
      codes: [codeRate('missing_tool_use_block', 2, d), codeRate('empty_tool_input_with_error_result', 3, d), codeRate('zero_delta_tool_use', 0, d)],
    });
    const rows = { by_version: [row('2.1.40')], by_day: [row('2026-05-01')], by_week: [row('2026-04-27')], by_model: [row('claude-opus-4-8')] };
    const text = formatReport(rows, {});
    expect(text).toMatch(/^2\.1\.40 +100 +90 +0% +2 +n\/m +3 +33\.3$/m);
    expect(text).toContain('n/m: not measurable (stop reason not recorded)');
    const wide = formatReport(rows, {}, { wide: true });
    expect(wide).toMatch(/^2\.1\.40 +100 +90 +0% +2 +n\/m\(1\) +3 +33\.3 .* 0 +n\/m\(2\) /m);
    expect(wide).toContain('n/m(1): not measurable (stop reason not recorded)');
    expect(wide).toContain('n/m(2): not measurable (no stream captures indexed)');
  });
});

describe('scan over a file being written', () => {
  const dir = join(tmp, 'live');
  const file = join(dir, 'session.jsonl');
  beforeAll(() => {
    mkdirSync(dir);
    cpSync(join(fixturesRoot, 'detectors/empty_tool_input_with_error_result/negative-empty-input-no-result.jsonl'), file);
    // Claude Code is writing the next row: its first half is there, without its newline.
    appendFileSync(file, '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"INPROGRESSCANARY');
  });

  it('counts it in files_in_progress and exits 0 when nothing else is wrong', () => {
    const run = runCli(['scan', '--json', dir]);
    const report = JSON.parse(run.stdout) as ScanReport;
    expect(report.errors).toEqual([]);
    expect(report.summary).toMatchObject({ files_scanned: 1, files_failed: 0, files_in_progress: 1, assistant_messages_checked: 0 });
    expect(run.status).toBe(0);
    const table = runCli(['scan', dir]);
    expect(table.stdout).toContain('still being written: 1 (not read; scan again later)');
    expect(run.stdout + run.stderr + table.stdout + table.stderr).not.toContain('INPROGRESSCANARY');
  });

  // Merged with the reliability work: scan and index share one 10-minute rule, and an old cut line is unfinished_last_line in both.
  it('a cut last line in a file untouched for a day will never be completed: unfinished_last_line, exit 2', () => {
    const old = new Date(Date.now() - 24 * 3600 * 1000);
    utimesSync(file, old, old);
    const run = runCli(['scan', '--json', dir]);
    const report = JSON.parse(run.stdout) as ScanReport;
    expect(report.summary.files_in_progress).toBe(0);
    expect(report.errors).toEqual([{ file: 'session.jsonl', line: expect.any(Number), code: 'unfinished_last_line' }]);
    expect(run.status).toBe(2);
  });
});

describe('serve --read-only', () => {
  const ro = join(tmp, 'ro');
  const roDb = join(ro, 'index.db');
  beforeAll(() => {
    mkdirSync(ro);
    cpSync(db, roDb);
  });

  it('is listed in serve --help', () => {
    const run = runCli(['serve', '--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/--read-only\s+open the index without writing it/);
  });

  it('starts, says so in one line, and leaves nothing beside the database when stopped', async () => {
    const bytes = readFileSync(roDb);
    const port = await freePort();
    const server = spawn(process.execPath, [join(root, 'server/cli/launch.mjs'), 'serve', '--read-only', '--no-build', '--port', String(port), '--db', roDb], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    server.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise<void>((resolve, reject) => {
      server.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('API token')) resolve();
      });
      server.on('close', () => reject(new Error(`serve exited: ${err}`)));
    });
    expect(out.split('\n')[0]).toBe('Read-only index (started with --read-only): index runs and folder changes are off, and folders are not watched.');
    const health = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as { read_only: boolean; read_only_reason: string };
    expect(health).toMatchObject({ read_only: true, read_only_reason: 'requested' });
    const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(err).toBe('');
    expect(readdirSync(ro)).toEqual(['index.db']);
    expect(readFileSync(roDb).equals(bytes)).toBe(true);
  });

  const refusals: Array<[string, string[], Record<string, string>, RegExp]> = [
    [
      'with --demo',
      ['--demo'],
      { XDG_DATA_HOME: join(tmp, 'xdg-demo'), TCF_DB: '' },
      /^error: --demo indexes the bundled corpus into its own database at every start, so it cannot be --read-only$/,
    ],
    ['with folders to index', ['--db', roDb, fixturesRoot], {}, /^error: folders to index were given, but the index is read-only \(started with --read-only\)/],
    [
      'on a database that does not exist',
      ['--db', join(tmp, 'ro-missing', 'index.db')],
      {},
      /^error: no index database there, and a read-only one cannot be made \(started with --read-only\): run `index <dir>` with write access first$/,
    ],
  ];
  it.each(refusals)('%s: refused in one line, exit 2, nothing created', (_name, args, env, message) => {
    const run = runCli(['serve', '--read-only', '--no-build', '--port', '4319', ...args], { env });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr.trimEnd()).toMatch(message);
    expect(existsSync(join(tmp, 'xdg-demo'))).toBe(false);
    expect(existsSync(join(tmp, 'ro-missing'))).toBe(false);
    expect(readdirSync(ro)).toEqual(['index.db']);
  });

  it('an index of an older schema is refused, not upgraded (that writes)', () => {
    const old = join(tmp, 'ro-old');
    mkdirSync(old);
    cpSync(db, join(old, 'index.db'));
    const older = new Database(join(old, 'index.db'));
    older.pragma('user_version = 1');
    older.close();
    const bytes = readFileSync(join(old, 'index.db'));
    const run = runCli(['serve', '--read-only', '--no-build', '--port', '4319', '--db', join(old, 'index.db')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^error: this index database has schema version 1, older than this build's \d+, and upgrading it writes it: open it once with write access/,
    );
    expect(readFileSync(join(old, 'index.db')).equals(bytes)).toBe(true);
    expect(readdirSync(old)).toEqual(['index.db']);
  });
});
