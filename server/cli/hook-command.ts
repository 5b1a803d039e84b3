import { closeSync, existsSync, lstatSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { FindingCode } from '../../shared/finding-codes';
import type { SessionEnd } from '../../shared/session-ends';
import { projectRoot } from '../build/project-root';
import type { DetectedFinding } from '../detect/detector';
import { startDetectors } from '../detect/run-detectors';
import { classifySessionEnd } from '../detect/session-end';
import { openRegularFile } from '../scan/safe-open';
import { scanFile } from '../scan/scan-file';
import { defaultDbPath } from '../store/default-db-path';

/**
 * `hook stop` / `hook subagent-stop`: Claude Code's Stop and SubagentStop hooks. Reads the
 * hook's JSON from stdin, waits briefly for the transcript to be flushed, examines the last
 * turn with the scanner and the detectors, and when it ended in a known failure prints one
 * JSON object whose `systemMessage` names the code and what it means. Otherwise prints nothing.
 * It never blocks the stop, never retries, never writes anything (but the index, with `--index`), never prints payload
 * (no text, id, path or cwd: only codes, versions, days and fixed sentences), and exits 0
 * whatever happens: a hook must never break the session.
 */

export const HOOK_EVENTS = { stop: 'Stop', 'subagent-stop': 'SubagentStop' } as const;
export type HookEvent = keyof typeof HOOK_EVENTS;

/** Longest wait for the transcript to stop growing and end in a newline. */
export const FLUSH_WAIT_MS = 1500;
const FLUSH_POLL_MS = 50;
const STDIN_LIMIT = 1024 * 1024;
const STDIN_WAIT_MS = 2000;
const HEALTH_TIMEOUT_MS = 500;

/**
 * What each code means, said to the user in plain words: one short clause, never the detector's
 * definition (a paragraph written for the README). Every code has one (the type says so), and the
 * whole message stays within HOOK_MESSAGE_MAX characters without its link (tested for each).
 */
const SAID: Record<FindingCode, string> = {
  missing_tool_use_block: 'the turn stopped to call a tool, but no call was saved',
  empty_tool_input_with_error_result: 'a tool was called with empty arguments and failed',
  text_leaked_tool_call: 'the model wrote its tool call as text, so nothing ran',
  malformed_retry_injected: 'a tool call was malformed and Claude Code asked the model to retry',
  malformed_retry_exhausted: "a tool call was malformed and Claude Code's retry also failed",
  truncated_tool_use: 'the turn was cut at max_tokens in the middle of a tool call',
  orphan_tool_use: 'a tool call in this turn never got its result',
  tool_result_internal_error: 'a tool result went missing through an internal error',
  api_tool_pairing_error: 'the API refused the request: tool calls and results did not pair up',
  repeated_empty_tool_call: 'the same tool was called with empty arguments again and again',
  zero_delta_tool_use: 'a tool call was streamed with no arguments at all',
  tool_use_stop_without_block: 'the turn stopped to call a tool, but the stream held no call',
  unparseable_tool_input: "a tool call's arguments were not valid JSON, so it never ran",
  input_mismatch: "a tool call's saved arguments differ from what was streamed",
  malformed_tool_use_exhausted: 'a malformed tool call was retried and failed again',
  thinking_cut_at_max_tokens: 'the model was cut at max_tokens while still thinking, before it said or did anything',
};

/** The longest message the hook prints, without its dashboard link. */
export const HOOK_MESSAGE_MAX = 200;

/** Endings worth a word even when no detector fired on the last turn. */
const ENDING_SAID: Partial<Record<SessionEnd, string>> = {
  said_nothing: 'the agent thought, said nothing and stopped (said_nothing)',
  max_tokens: 'the last turn was cut at max_tokens, so its answer is incomplete (max_tokens)',
  lost_call: 'the model meant to call a tool, but no call was saved (lost_call)',
};

export interface Diagnosis {
  /** The finding code or the ending the message is about. */
  code: FindingCode | null;
  end: SessionEnd | null;
  sentence: string;
  /** Dashboard query for the finding (codes, version and day only). */
  query: string;
}

/**
 * The diagnosis of a transcript's last turn, or null when it ended well (or cannot be read:
 * a hook has nobody to report a damaged file to, and `scan` does that better).
 */
export function diagnoseTranscript(path: string): Diagnosis | null {
  const detectors = startDetectors('transcript');
  const scan = scanFile(path, { unfinishedLastLineMeansInProgress: true, observers: detectors.observers });
  if (scan.status !== 'ok') return null;
  const transcript = scan.transcript;
  const verdict = classifySessionEnd(transcript);
  if (verdict === null) return null;
  // The last turn: everything after the last prompt the user typed. A failure the turn recovered
  // from is not why the agent stopped: the hook speaks when the turn ENDED in a failure (a finding
  // on its last message or on a harness row after it, or a failing ending), and then also names
  // the other codes of the turn.
  const lastPrompt = transcript.prompts.length ? transcript.prompts[transcript.prompts.length - 1]! : 0;
  const thread = (f: DetectedFinding) => f.message.sidechain === transcript.sidechain;
  const found = detectors.detect(transcript).filter((f) => thread(f) && f.sourceLines[f.sourceLines.length - 1]! > lastPrompt);
  const endStart = verdict.message ? verdict.message.lines[0]! : 0;
  const atEnd = found.filter((f) => f.message.lines[0]! >= endStart);
  const endSaid = ENDING_SAID[verdict.end];
  const onLast = atEnd.find((f) => f.message === verdict.message) ?? atEnd[atEnd.length - 1];
  if (!onLast && !endSaid) return null;
  const message = onLast?.message ?? verdict.message;
  const params = new URLSearchParams();
  if (onLast) params.set('code', onLast.code);
  if (message?.version) params.set('version', message.version);
  if (message?.day) {
    params.set('from', message.day);
    params.set('to', message.day);
  }
  const others = [...new Set(found.map((f) => f.code))].filter((c) => c !== onLast?.code);
  const sentence = hookSentence(onLast ? `${SAID[onLast.code]} (${onLast.code})` : endSaid!, others);
  return { code: onLast?.code ?? null, end: verdict.end, sentence, query: params.toString() };
}

/**
 * One sentence: what happened, that it is the client's failure, and the turn's other codes when
 * they fit within HOOK_MESSAGE_MAX (else how many there were).
 */
export function hookSentence(what: string, others: readonly string[]): string {
  const base = `${HOOK_PREFIX}${what}, a known client failure, not your prompt`;
  const also = others.length === 0 ? '' : `; also in this turn: ${others.join(', ')}`;
  const counted = others.length === 0 ? '' : `; ${others.length} more code${others.length === 1 ? '' : 's'} in this turn`;
  for (const tail of [also, counted, '']) if (base.length + tail.length + 1 <= HOOK_MESSAGE_MAX) return `${base}${tail}.`;
  return `${base}.`;
}

const HOOK_PREFIX = 'tool-call-forensics: ';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits (at most `maxMs`) until the file ends in a newline and has not grown for two polls:
 * Claude Code writes the transcript asynchronously, so the last rows may land after the hook
 * starts. Never waits longer, whatever the file does.
 */
export async function waitForFlush(path: string, maxMs = FLUSH_WAIT_MS): Promise<void> {
  const deadline = Date.now() + maxMs;
  let lastSize = -1;
  let stable = 0;
  while (Date.now() < deadline) {
    const { size, endsWithNewline } = tail(path);
    stable = size === lastSize && endsWithNewline ? stable + 1 : 0;
    if (stable >= 2) return;
    lastSize = size;
    await sleep(FLUSH_POLL_MS);
  }
}

/**
 * The diagnosis of a transcript whose writing has ended, as waitForFlush defines it (ends in a newline, has not grown
 * for two polls), without paying the polls before the read: the last turn is examined at once, and the answer kept
 * when the file was the same (size and modification time, ending in a newline) before the read and two polls'
 * time after its start. A transcript only grows, so an unchanged size means the read saw the rows as they stand.
 * Otherwise it waits as before and examines the file again. With `index`, the transcript is indexed once it is
 * known to be complete.
 */
async function diagnoseWhenFlushed(path: string, index?: { dbPath: string }): Promise<Diagnosis | null> {
  const started = Date.now();
  const before = tail(path);
  if (before.endsWithNewline) {
    const diagnosis = diagnoseTranscript(path);
    const waited = Date.now() - started;
    if (waited < 2 * FLUSH_POLL_MS) await sleep(2 * FLUSH_POLL_MS - waited);
    const after = tail(path);
    if (after.endsWithNewline && after.size === before.size && after.mtimeMs === before.mtimeMs) {
      if (index) await indexForHook(index.dbPath, path);
      return diagnosis;
    }
  }
  await waitForFlush(path, Math.max(0, FLUSH_WAIT_MS - (Date.now() - started)));
  if (index) await indexForHook(index.dbPath, path);
  return diagnoseTranscript(path);
}

function tail(path: string): { size: number; endsWithNewline: boolean; mtimeMs: number } {
  // The one safe open (scan/safe-open.ts): a FIFO or socket swapped in after the lstat below throws, never blocks.
  const { fd, stat } = openRegularFile(path);
  try {
    const { size, mtimeMs } = stat;
    if (size === 0) return { size, endsWithNewline: false, mtimeMs };
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, size - 1);
    return { size, endsWithNewline: byte[0] === 0x0a, mtimeMs };
  } finally {
    closeSync(fd);
  }
}

async function readStdin(): Promise<string | null> {
  if (process.stdin.isTTY) return null;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (value: string | null) => {
      clearTimeout(timer);
      process.stdin.removeAllListeners('data');
      process.stdin.pause();
      resolve(value);
    };
    const timer = setTimeout(() => done(null), STDIN_WAIT_MS);
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > STDIN_LIMIT) return done(null);
      chunks.push(chunk);
    });
    process.stdin.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => done(null));
  });
}

/** The transcript the hook is about: a subagent's own file when SubagentStop names one. */
function transcriptOf(input: unknown, event: HookEvent): string | null {
  if (input === null || typeof input !== 'object') return null;
  const fields = input as Record<string, unknown>;
  const candidates = event === 'subagent-stop' ? [fields.agent_transcript_path, fields.transcript_path] : [fields.transcript_path];
  for (const c of candidates) {
    if (typeof c !== 'string' || !c.endsWith('.jsonl')) continue;
    try {
      // Never follow a symbolic link; only a regular file is read.
      if (lstatSync(c).isFile()) return c;
    } catch {
      // missing or unreadable: nothing to say
    }
  }
  return null;
}

/**
 * The opaque id of the index at `dbPath` (migration 022), read without writing anything; null when
 * there is no index there (then no dashboard can be showing this transcript's finding).
 */
export async function indexIdAt(dbPath: string): Promise<string | null> {
  try {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare(`SELECT value FROM meta WHERE key = 'index_id'`).get() as { value: string } | undefined)?.value ?? null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/**
 * The dashboard's address when a tool-call-forensics server on this loopback port serves the
 * index `indexId` names: a link to another index (a demo, another --db) would show the user a page
 * without this finding.
 */
async function dashboardBase(port: number, indexId: string | null): Promise<string | null> {
  if (indexId === null || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  const base = `http://127.0.0.1:${port}/`;
  try {
    const response = await fetch(`${base}api/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    if (!response.ok) return null;
    const body = (await response.json()) as { status?: unknown; index_id?: unknown };
    return body.status === 'ok' && body.index_id === indexId ? base : null;
  } catch {
    return null;
  }
}

/**
 * `--index` (issue 27): indexes the transcript into the index database at `dbPath`, incrementally, when it lies under
 * a folder added to that index; never creates a database, never waits for the index lock (an index run or the
 * watcher holding it will see the file), never throws. Resolves to what happened, for tests and the benchmark.
 */
export async function indexForHook(dbPath: string, path: string): Promise<string> {
  try {
    if (!existsSync(dbPath)) return 'no_index';
    const [{ openDatabase }, { indexTranscript }] = await Promise.all([import('../store/database'), import('../live/index-transcript')]);
    const db = openDatabase(dbPath);
    try {
      return await indexTranscript(db, path);
    } finally {
      db.close();
    }
  } catch {
    return 'failed';
  }
}

/** Runs one hook event; resolves to what to print on stdout ('' for nothing). Never throws. */
export async function runHook(
  event: HookEvent,
  options: { port?: number; stdin?: () => Promise<string | null>; dbPath?: string; index?: { dbPath: string } } = {},
): Promise<string> {
  try {
    const text = await (options.stdin ?? readStdin)();
    if (text === null) return '';
    const path = transcriptOf(JSON.parse(text), event);
    if (path === null) return '';
    const diagnosis = await diagnoseWhenFlushed(path, options.index);
    if (diagnosis === null) return '';
    const base = await dashboardBase(options.port ?? 4319, await indexIdAt(options.dbPath ?? defaultDbPath()));
    const page = diagnosis.code ? 'findings' : 'versions';
    const link = base ? ` Dashboard: ${base}${page}${diagnosis.query ? `?${diagnosis.query}` : ''}` : '';
    return JSON.stringify({ systemMessage: `${diagnosis.sentence}${link}` }) + '\n';
  } catch {
    return '';
  }
}

/** The settings.json snippet that installs both hooks (with `index`, each also indexes its transcript); printed, never written. */
export function hookSettingsSnippet(index = false): string {
  // bin.mjs runs the sources in a checkout and the prebuilt bundle in an installed package.
  const launch = join(projectRoot, 'server/cli/bin.mjs');
  const command = (event: HookEvent) => `"${process.execPath}" "${launch}" hook ${event}${index ? ' --index' : ''}`;
  const entry = (event: HookEvent) => [{ hooks: [{ type: 'command', command: command(event), timeout: 10 }] }];
  return JSON.stringify({ hooks: { Stop: entry('stop'), SubagentStop: entry('subagent-stop') } }, null, 2) + '\n';
}

/** `hook <event>`: the entry point main.ts calls. Exit code 0 always. */
export async function hookCommand(event: string, options: { print?: boolean; port?: string; index?: boolean; db?: string }): Promise<void> {
  process.exitCode = 0;
  if (event === 'install') {
    if (!options.print) {
      process.stderr.write('hook install only prints the settings to add by hand: run `hook install --print`; nothing was written.\n');
      return;
    }
    process.stdout.write(hookSettingsSnippet(options.index === true));
    process.stderr.write('Add the "hooks" above to ~/.claude/settings.json (or a project\'s .claude/settings.json) by hand; nothing was written.\n');
    return;
  }
  if (!(event in HOOK_EVENTS)) return;
  const port = options.port === undefined ? Number(process.env.TCF_PORT ?? 4319) : Number(options.port);
  // One index for both: the one --index writes to is the one a dashboard link must serve.
  const dbPath = options.db ?? defaultDbPath();
  process.stdout.write(await runHook(event as HookEvent, { port, dbPath, ...(options.index ? { index: { dbPath } } : {}) }));
}
