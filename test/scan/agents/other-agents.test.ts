import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../../server/app/index-database';
import { runScan, scanExitCode } from '../../../server/cli/scan-command';
import { indexFilesOfRoot } from '../../../server/live/index-files';
import type { RowsAdapter } from '../../../server/scan/agents/adapter';
import { copilotCliAdapter } from '../../../server/scan/agents/copilot-cli';
import { geminiCliRowsAdapter } from '../../../server/scan/agents/gemini-cli';
import { piAdapter } from '../../../server/scan/agents/pi';
import { scanFile } from '../../../server/scan/scan-file';
import type { TranscriptFile } from '../../../server/scan/transcript-model';
import { walkInputs } from '../../../server/scan/walk-inputs';
import { openDatabase } from '../../../server/store/database';
import { addRoot } from '../../../server/store/roots';
import {
  type AgentHome,
  copilotEvents,
  EXPECTED,
  geminiHistory,
  geminiJson,
  geminiJsonl,
  geminiMarkdown,
  piSession,
  writeAgentHomes,
} from '../../support/agent-layouts';
import { testApp } from '../../support/api-app';

/**
 * Issue 34 point 4 and issue 38 point 1 (file layouts): Copilot CLI, Pi and Gemini CLI sessions in
 * the folders each agent writes, read and counted by content, no finding, refusals coded; every
 * damaged shape fails with its code and line. The sessions are the project's own
 * (test/support/agent-layouts.ts); ../shared's real ones are checked in test/shared-suite.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-agents2-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const homes: AgentHome = writeAgentHomes(join(tmp, 'home'), 'payload');

function read(path: string): TranscriptFile & { agent: string; version: string | null } {
  const scan = scanFile(path);
  if (scan.status !== 'ok') throw new Error(`${path}: ${JSON.stringify(scan)}`);
  return { ...scan.transcript, agent: scan.agent, version: scan.version };
}

/** The counts a file gives, computed from the model the adapter built. */
function counts(t: ReturnType<typeof read>) {
  return {
    agent: t.agent,
    version: t.version,
    messages: t.messages.length,
    calls: t.messages.reduce((n, m) => n + m.toolUses.length, 0),
    results: t.toolResults.length,
    models: [...new Set(t.messages.map((m) => m.model))],
    days: [...new Set(t.messages.map((m) => m.day))],
  };
}

/** The counts the adapter kept beside the model (denials, hook failures…), by reading the file row by row. */
function eventCounts(adapter: RowsAdapter, text: string): Record<string, number> {
  const reader = adapter.start({ observers: [] }) as ReturnType<RowsAdapter['start']> & { events: Record<string, number> };
  const lines = text.split('\n');
  lines.forEach((l, i) => {
    if (l.trim() !== '') expect(reader.addRow(JSON.parse(l), i + 1)).toBe('ok');
  });
  expect(reader.finish({ lineCount: lines.length, endsWithNewline: true, salvaged: [] }).status).toBe('ok');
  return reader.events;
}

const without = <T extends object>(o: T) => {
  const { events: _, ...rest } = o as T & { events: unknown };
  return rest;
};

describe('each agent in its own folder: read, counted, no finding', () => {
  it('Copilot CLI: session-state/<uuid>/events.jsonl (workspace.yaml and session.db beside it are not read)', () => {
    const walk = walkInputs([homes.copilotFolder]);
    expect(walk.files.map((f) => f.name)).toEqual(['0b7f4c1e-1111-4222-8333-944455556666/events.jsonl']);
    const t = read(homes.copilotFile);
    expect(counts(t)).toEqual(without(EXPECTED.copilot));
    expect(eventCounts(copilotCliAdapter, readFileSync(homes.copilotFile, 'utf8'))).toEqual(EXPECTED.copilot.events);
    // The sub-agent's message (parentToolCallId) is a sidechain message; the MCP call is kept as `mcp`, the built-ins by name.
    expect(t.messages.map((m) => m.sidechain)).toEqual([false, false, true]);
    expect(t.messages.flatMap((m) => m.toolUses.map((u) => u.name))).toEqual(['bash', 'mcp', 'view']);
    expect(t.toolResults.map((r) => r.errorKind)).toEqual([null, 'permission_denied', 'other']);
    expect(t.messages.map((m) => m.effort)).toEqual(['medium', 'medium', 'medium']);
    expect(t.interrupts).toEqual([18]);
    expect(t.compactBoundaries).toEqual([20]);
    expect(t.diagnostics.flatMap((d) => Object.entries(d.unknownRowTypes))).toEqual([['brand.new_event', 1]]);
  });

  it('Pi: agent/sessions/--<cwd>--/<time>_<uuid>.jsonl', () => {
    const walk = walkInputs([homes.piFolder]);
    expect(walk.files.map((f) => f.name)).toEqual(['--home-user-work--/2026-06-01T10-00-00-000Z_0b7f4c1e-1111-4222-8333-944455556666.jsonl']);
    const t = read(homes.piFile);
    expect(counts(t)).toEqual(without(EXPECTED.pi));
    expect(eventCounts(piAdapter, readFileSync(homes.piFile, 'utf8'))).toEqual(EXPECTED.pi.events);
    expect(t.messages.map((m) => m.stopReason)).toEqual(['toolUse', 'aborted', 'error', 'toolUse']);
    // An extension's tool is `other`; Pi's own by name. Effort: the thinking level.
    expect(t.messages.flatMap((m) => m.toolUses.map((u) => u.name))).toEqual(['read', 'other', 'bash']);
    expect(t.messages.map((m) => m.effort)).toEqual(['high', 'high', 'high', 'high']);
    expect(t.messages[0]!.blockTypes).toEqual(['thinking', 'text', 'tool_use']);
    expect(t.interrupts).toEqual([9]);
    expect(t.compactBoundaries).toEqual([13]);
  });

  it('Gemini CLI: the same session as whole JSON (.json, up to v0.38) and appended JSONL (.jsonl, v0.39+) gives the same counts', () => {
    const json = read(homes.geminiJson);
    const jsonl = read(homes.geminiJsonl);
    expect(counts(json)).toEqual(without(EXPECTED.gemini));
    expect(counts(jsonl)).toEqual(without(EXPECTED.gemini));
    expect(json.toolResults.map((r) => r.errorKind)).toEqual([null, 'other', 'user_rejected']);
    expect(jsonl.toolResults.map((r) => r.errorKind)).toEqual([null, 'other', 'user_rejected']);
    expect(eventCounts(geminiCliRowsAdapter, readFileSync(homes.geminiJsonl, 'utf8'))).toEqual({ ...EXPECTED.gemini.events, rewinds: 1 });
  });

  it('Gemini CLI whole JSON: a message and a call are at the line of their opening brace', () => {
    const text = geminiJson('payload').split('\n');
    const json = read(homes.geminiJson);
    // Every call's line holds its opening brace, and the next line its `id`.
    for (const m of json.messages) {
      expect(text[m.lines[0]! - 1]!.trim()).toBe('{');
      expect(text[m.lines[0]!]).toContain(`"id": "${m.messageId}"`);
      for (const u of m.toolUses) {
        expect(text[u.line - 1]!.trim()).toBe('{');
        expect(text[u.line]).toContain(`"id": "${u.id}"`);
      }
    }
    for (const r of json.toolResults) expect(json.messages.flatMap((m) => m.toolUses).find((u) => u.id === r.toolUseId)!.line).toBe(r.line);
  });

  it('Gemini CLI JSONL: a message rewritten as it grows is read once, from its last copy, at every line a copy is on', () => {
    const jsonl = read(homes.geminiJsonl);
    const grown = jsonl.messages[0]!;
    expect(grown.lines).toEqual([5, 6, 7]);
    expect(grown.toolUses.map((u) => u.line)).toEqual([7, 7]);
    // The second copy's calls were still executing: only the last copy's statuses count.
    expect(jsonl.toolResults.slice(0, 2).map((r) => r.line)).toEqual([7, 7]);
  });

  it('scan over the three folders: every session read, no finding, the .json files that are not transcripts passed over', () => {
    const report = runScan([homes.copilotFolder, homes.piFolder, homes.geminiFolder]);
    expect(report.findings).toEqual([]);
    // The prompt log is passed over (counted, never read or failed); the saved history is refused by the Gemini reader.
    expect(report.errors).toEqual([{ file: 'tmp/work/checkpoint-mytag.json', line: 1, code: 'gemini_text_only' }]);
    expect(report.summary.files_passed_over).toBe(1);
    expect(report.summary.files_scanned).toBe(5);
    expect(report.summary.assistant_messages_checked).toBe(EXPECTED.copilot.messages + EXPECTED.pi.messages + 2 * EXPECTED.gemini.messages);
    expect(scanExitCode(report)).toBe(2);
  });
});

describe('the index and GET /api/agents', () => {
  it('each agent with its version, model messages, calls and results; nothing found; a second run reads nothing', async () => {
    const t = await testApp([homes.copilotFolder, homes.piFolder, homes.geminiFolder]);
    try {
      const r = await t.get('/api/agents');
      expect(r.status).toBe(200);
      const row = (e: (typeof EXPECTED)[keyof typeof EXPECTED], files: number) => ({
        agent: e.agent,
        files,
        versions: [{ version: e.version, files, model_messages: files * e.messages, tool_calls: files * e.calls }],
        model_messages: files * e.messages,
        tool_calls: files * e.calls,
        tool_results: files * e.results,
        findings: 0,
      });
      expect(r.json.rows).toEqual([row(EXPECTED.copilot, 1), row(EXPECTED.pi, 1), row(EXPECTED.gemini, 2)]);
      const files = t.db.prepare('SELECT rel_path, status, error_code, agent FROM files ORDER BY rel_path').all();
      // logs.json was passed over: not stored; the saved history was refused.
      expect(files).toEqual([
        { rel_path: '--home-user-work--/2026-06-01T10-00-00-000Z_0b7f4c1e-1111-4222-8333-944455556666.jsonl', status: 'ok', error_code: null, agent: 'pi' },
        { rel_path: '0b7f4c1e-1111-4222-8333-944455556666/events.jsonl', status: 'ok', error_code: null, agent: 'copilot-cli' },
        { rel_path: 'work/chats/session-2026-06-01T10-00-0b7f4c1e.json', status: 'ok', error_code: null, agent: 'gemini-cli' },
        { rel_path: 'work/chats/session-2026-06-01T11-00-1a2b3c4d.jsonl', status: 'ok', error_code: null, agent: 'gemini-cli' },
        { rel_path: 'work/checkpoint-mytag.json', status: 'failed', error_code: 'gemini_text_only', agent: null },
      ]);
      const again = await indexDatabase(t.db, { analyser: 'inline' });
      expect(again).toMatchObject({ filesChanged: 0, filesUnchanged: 5, filesPassedOver: 1, bytesRead: 0 });
    } finally {
      await t.close();
    }
  });
});

describe('live: a Gemini chat rewritten in place is read again; a .json that is not a transcript is left alone', () => {
  it("the watcher's per-file update reads the .json chat it holds, and ignores package.json", async () => {
    const root = join(tmp, 'live-gemini');
    mkdirSync(join(root, 'chats'), { recursive: true });
    writeFileSync(join(root, 'chats/session-a.json'), geminiJson('x'));
    const db = openDatabase(join(tmp, 'live.db'));
    try {
      const row = addRoot(db, root);
      await indexDatabase(db, { analyser: 'inline' });
      const messages = () => db.prepare("SELECT model_messages FROM files WHERE rel_path = 'chats/session-a.json'").pluck().get();
      expect(messages()).toBe(EXPECTED.gemini.messages);
      // Gemini adds a message and rewrites the whole file; a package.json appears beside it.
      const doc = JSON.parse(geminiJson('x'));
      doc.messages.push({ ...doc.messages[6], id: 'x-m9' });
      writeFileSync(join(root, 'chats/session-a.json'), JSON.stringify(doc, null, 2));
      writeFileSync(join(root, 'package.json'), '{"name": "p"}');
      const update = await indexFilesOfRoot(db, row, ['chats/session-a.json', 'package.json']);
      expect(update.filesChanged).toBe(1);
      expect(messages()).toBe(EXPECTED.gemini.messages + 1);
      expect(db.prepare('SELECT rel_path FROM files ORDER BY rel_path').pluck().all()).toEqual(['chats/session-a.json']);
    } finally {
      db.close();
    }
  });
});

describe('.json files: a walk reads only those that begin like a transcript; a named one is always read', () => {
  const dir = join(tmp, 'json');
  mkdirSync(join(dir, 'project'), { recursive: true });
  const put = (name: string, text: string) => writeFileSync(join(dir, name), text);
  put('project/package.json', JSON.stringify({ name: 'x', version: '1.0.0' }, null, 2));
  put('project/tsconfig.json', '// comments are not JSON\n{ "compilerOptions": {} }\n');
  put('project/settings.json', '{"sessionIdle": 3}');
  put('session-a.json', geminiJson('x'));
  put('compact.json', JSON.stringify(JSON.parse(geminiJson('x'))));
  put('history.json', geminiHistory('x'));
  put('torn.json', geminiJson('x').slice(0, 400));

  it('walked: chats read, the others passed over and counted, never failed', () => {
    const walk = walkInputs([dir]);
    expect(walk.files.map((f) => f.name).sort()).toEqual(['compact.json', 'history.json', 'session-a.json', 'torn.json']);
    expect(walk.passedOver).toBe(3);
    const report = runScan([dir]);
    expect(report.summary.files_passed_over).toBe(3);
    expect(report.errors.map((e) => [e.file, e.code])).toEqual([
      ['history.json', 'gemini_text_only'],
      // A chat cut short while Gemini rewrote it is damaged, not passed over: it begins like one.
      ['torn.json', 'malformed_json'],
    ]);
    expect(report.summary.files_read_by_format).toEqual({ transcript: 2 });
  });

  it('named directly: a .json no reader claims is refused unknown_format', () => {
    const report = runScan([join(dir, 'project/package.json')]);
    expect(report.errors).toEqual([{ file: 'package.json', line: 1, code: 'unknown_format' }]);
    expect(runScan([join(dir, 'project/tsconfig.json')]).errors).toEqual([{ file: 'tsconfig.json', line: 1, code: 'malformed_json' }]);
    expect(runScan([join(dir, 'session-a.json')]).summary.assistant_messages_checked).toBe(EXPECTED.gemini.messages);
  });
});

describe('refused with a code that names the format', () => {
  const dir = join(tmp, 'refused');
  mkdirSync(dir, { recursive: true });
  const put = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it("Gemini CLI's text-only files: the Markdown export (any name) and the [{role, parts}] history", () => {
    expect(scanFile(put('shared.md', geminiMarkdown('x')))).toMatchObject({ status: 'failed', failure: { code: 'gemini_text_only', line: 1 } });
    expect(scanFile(put('full.jsonl', `\n${geminiMarkdown('x')}`))).toMatchObject({ status: 'failed', failure: { code: 'gemini_text_only', line: 2 } });
    expect(scanFile(put('checkpoint.json', geminiHistory('x')))).toMatchObject({ status: 'failed', failure: { code: 'gemini_text_only', line: 1 } });
    // Other text is not guessed at.
    expect(scanFile(put('notes.md', '# Notes\n\n## USER guide\n'))).toMatchObject({ status: 'failed', failure: { code: 'malformed_json', line: 1 } });
  });

  it("Entire's compact transcript.jsonl, whatever agent it names", () => {
    const row = { v: 1, agent: 'gemini-cli', cli_version: '0.30.0', type: 'user', ts: '2026-06-01T10:00:00Z', content: [{ text: 'x' }], id: 'a' };
    const path = put(
      'transcript.jsonl',
      `${JSON.stringify(row)}\n${JSON.stringify({ ...row, type: 'assistant', content: [{ type: 'tool_use', name: 'x', input: {} }] })}\n`,
    );
    expect(scanFile(path)).toMatchObject({ status: 'failed', failure: { code: 'entire_compact_transcript', line: 1 } });
  });

  it('a Pi header of a file version not read here (its rows may mean something else)', () => {
    const text = piSession('x').replace('"version":3', '"version":4');
    expect(scanFile(put('pi-v4.jsonl', text))).toMatchObject({ status: 'failed', failure: { code: 'unknown_format', line: 1, hint: 'pi_session' } });
  });

  it('a Pi header without version (version 1) is read', () => {
    const text = piSession('x').replace('"version":3,', '');
    expect(scanFile(put('pi-v1.jsonl', text))).toMatchObject({ status: 'ok', agent: 'pi' });
  });
});

describe('damaged files: each fails with its code and line, never read as clean', () => {
  const dir = join(tmp, 'damaged');
  mkdirSync(dir, { recursive: true });
  let n = 0;
  /** The session's text with line `line` (1-based) replaced by `row`, or cut. */
  const damaged = (text: string, line: number, row: string | null) => {
    const lines = text.split('\n');
    if (row === null) lines.length = line;
    else lines[line - 1] = row;
    const path = join(dir, `d${++n}.jsonl`);
    writeFileSync(path, lines.join('\n'));
    return path;
  };
  const failsAt = (path: string, code: string, line: number) => expect(scanFile(path)).toMatchObject({ status: 'failed', failure: { code, line } });
  const copilot = copilotEvents('x');
  const pi = piSession('x');
  const gemini = geminiJsonl('x');
  const row = (text: string, line: number) => JSON.parse(text.split('\n')[line - 1]!);

  it.each([
    ['a torn row', 8, (l: string) => l.slice(0, 40), 'malformed_json'],
    ['two rows on one line', 8, (l: string) => l + l, 'concatenated_rows'],
    ['a duplicate key', 8, (l: string) => l.replace(/^\{"([^"]+)":/, '{"$1":0,"$1":'), 'duplicate_key'],
  ])('every format: %s', (_, line, change, code) => {
    for (const text of [copilot, pi, gemini]) failsAt(damaged(text, line, change(text.split('\n')[line - 1]!)), code, line);
  });

  it('Copilot CLI: an event without data, a message without messageId, requests that are not a list, a call without id, a completion without success', () => {
    const msg = row(copilot, 8);
    failsAt(damaged(copilot, 3, JSON.stringify({ type: 'system.message', id: 'e' })), 'invalid_structure', 3);
    failsAt(damaged(copilot, 8, JSON.stringify({ ...msg, data: { ...msg.data, messageId: undefined } })), 'invalid_structure', 8);
    failsAt(damaged(copilot, 8, JSON.stringify({ ...msg, data: { ...msg.data, toolRequests: { a: 1 } } })), 'invalid_structure', 8);
    failsAt(damaged(copilot, 8, JSON.stringify({ ...msg, data: { ...msg.data, toolRequests: [{ name: 'bash' }] } })), 'invalid_structure', 8);
    const done = row(copilot, 11);
    failsAt(damaged(copilot, 11, JSON.stringify({ ...done, data: { ...done.data, success: 'yes' } })), 'invalid_structure', 11);
    failsAt(damaged(copilot, 9, JSON.stringify({ ...row(copilot, 9), data: {} })), 'invalid_structure', 9);
  });

  it('Pi: a message without role, assistant content that is not a list, a call without id, a result without toolCallId or with a non-boolean isError', () => {
    const assistant = row(pi, 5);
    const result = row(pi, 6);
    failsAt(damaged(pi, 4, JSON.stringify({ ...row(pi, 4), message: { content: 'x' } })), 'invalid_structure', 4);
    failsAt(damaged(pi, 5, JSON.stringify({ ...assistant, message: { ...assistant.message, content: 'x' } })), 'invalid_structure', 5);
    failsAt(
      damaged(pi, 5, JSON.stringify({ ...assistant, message: { ...assistant.message, content: [{ type: 'toolCall', name: 'read' }] } })),
      'invalid_structure',
      5,
    );
    failsAt(damaged(pi, 6, JSON.stringify({ ...result, message: { ...result.message, toolCallId: 7 } })), 'invalid_structure', 6);
    failsAt(damaged(pi, 6, JSON.stringify({ ...result, message: { ...result.message, isError: 'no' } })), 'invalid_structure', 6);
  });

  it('Gemini CLI JSONL: a message without id, calls that are not a list, a call without name, a $set that is not an object, an unknown record', () => {
    const m3 = row(gemini, 7);
    failsAt(damaged(gemini, 3, JSON.stringify({ ...row(gemini, 3), id: undefined })), 'invalid_structure', 3);
    failsAt(damaged(gemini, 7, JSON.stringify({ ...m3, toolCalls: {} })), 'invalid_structure', 7);
    failsAt(damaged(gemini, 7, JSON.stringify({ ...m3, toolCalls: [{ id: 'a' }] })), 'invalid_structure', 7);
    failsAt(damaged(gemini, 4, JSON.stringify({ $set: [1] })), 'invalid_structure', 4);
    failsAt(damaged(gemini, 4, JSON.stringify({ $push: { messages: [] } })), 'invalid_structure', 4);
  });

  it('Gemini CLI whole JSON: a message without id fails at its opening brace; a duplicate key, a cut file fail too', () => {
    const doc = JSON.parse(geminiJson('x'));
    doc.messages[2].id = 7;
    const bad = JSON.stringify(doc, null, 2);
    const path = join(dir, 'bad-message.json');
    writeFileSync(path, bad);
    const line = bad.split('\n').findIndex((l) => l.includes('"id": 7'));
    failsAt(path, 'invalid_structure', line);
    const dup = join(dir, 'dup.json');
    writeFileSync(dup, geminiJson('x').replace('"kind": "main"', '"kind": "main",\n  "kind": "main"'));
    expect(scanFile(dup)).toMatchObject({ status: 'failed', failure: { code: 'duplicate_key' } });
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, geminiJson('x').slice(0, 1000));
    expect(scanFile(cut)).toMatchObject({ status: 'failed', failure: { code: 'malformed_json', line: 1 } });
  });
});
