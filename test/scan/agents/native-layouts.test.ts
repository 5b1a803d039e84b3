import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../../server/app/index-database';
import { runScan } from '../../../server/cli/scan-command';
import { verifyReport } from '../../../server/cli/verify-command';
import { analyseFile, type FileAnalysis } from '../../../server/detect/analyse-file';
import { walkInputs } from '../../../server/scan/walk-inputs';
import { openDatabase } from '../../../server/store/database';
import { addRoot } from '../../../server/store/roots';
import { testApp } from '../../support/api-app';
import { fixturesRoot } from '../../support/detector-fixtures';

/**
 * Issue 38 points 1 and 3: each agent's sessions where the agent keeps them (fixtures/agents-native/, built by
 * fixtures/make-agent-fixtures.mjs, no ../shared) read the same as the same session in Entire's layout: the same
 * agent, version, counts, findings (code, lines, evidence digest) and diagnostics. OpenCode's legacy storage/ tree
 * is read a session at a time from its session, message and part files; the user's files are never changed.
 */
const native = join(fixturesRoot, 'agents-native');
const SAME: Record<string, string> = JSON.parse(readFileSync(join(native, 'same-session.json'), 'utf8'));
const tmp = mkdtempSync(join(tmpdir(), 'tcf-native-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** What must match between two readings of one session. */
function reading(a: FileAnalysis) {
  if (a.status !== 'ok') return a;
  return {
    agent: a.agent,
    version: a.agentVersion,
    counts: a.counts,
    assistantMessages: a.assistantMessages,
    findings: a.findings.map((f) => ({ code: f.code, lines: f.lines, sourceLines: f.sourceLines, evidence: f.evidenceSha256, model: f.model, day: f.day })),
    diagnostics: a.diagnostics,
  };
}

/** Every file under a folder with the SHA-256 of its bytes (and its mtime), to prove nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out[relative(dir, p)] = `${createHash('sha256').update(readFileSync(p)).digest('hex')} ${st.mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

describe('each agent where it lives reads as its Entire copy', () => {
  it('covers the five layouts of the issue: OpenCode storage/, Codex sessions/YYYY/MM/DD, Gemini .json and .jsonl, Copilot session-state, Pi sessions', () => {
    const names = Object.keys(SAME);
    expect(names.filter((n) => /^opencode\/storage\/session\/[^/]+\/ses_[^/]+\.json$/.test(n)).length).toBe(2);
    expect(names.some((n) => /^codex\/sessions\/\d{4}\/\d{2}\/\d{2}\/rollout-[^/]+\.jsonl$/.test(n))).toBe(true);
    expect(names.filter((n) => /^gemini\/tmp\/[^/]+\/chats\/session-[^/]+\.jsonl?$/.test(n)).length).toBe(2);
    expect(names.some((n) => /^copilot\/session-state\/[0-9a-f-]{36}\/events\.jsonl$/.test(n))).toBe(true);
    expect(names.some((n) => /^pi\/agent\/sessions\/--[^/]+--\/[^/]+_[0-9a-f-]{36}\.jsonl$/.test(n))).toBe(true);
  });

  it.each(Object.entries(SAME))('%s', (name, entire) => {
    const here = analyseFile(join(native, name));
    const there = analyseFile(join(fixturesRoot, 'agents', entire));
    expect(here.status).toBe('ok');
    expect(reading(here)).toEqual(reading(there));
  });

  it('the sessions with findings keep them: the Codex orphan and the OpenCode invalid call, at their Entire lines', () => {
    const expected = {
      ...JSON.parse(readFileSync(join(fixturesRoot, 'agents', 'expected.json'), 'utf8')),
      ...JSON.parse(readFileSync(join(fixturesRoot, 'agents-entire', 'expected.json'), 'utf8')),
    };
    const report = runScan([native]);
    expect(report.errors).toEqual([]);
    expect(report.findings.map((f) => [f.file, f.code, f.lines[0]])).toEqual(
      Object.entries(SAME)
        .flatMap(([name, entire]) =>
          expected[entire.replace('../agents-entire/', '')].findings.map((f: { code: string; line: number }) => [name, f.code, f.line]),
        )
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(report.findings.length).toBe(2);
    expect(report.summary.files_read_by_agent).toEqual({ codex: 1, 'copilot-cli': 1, 'gemini-cli': 2, opencode: 2, pi: 1 });
  });
});

describe("OpenCode's storage/ tree", () => {
  const storage = join(native, 'opencode', 'storage');

  it('a walk names each session file once; its messages and parts are read with it, the project file is passed over', () => {
    const walk = walkInputs([join(native, 'opencode')]);
    expect(walk.files.map((f) => [f.name, f.pieces])).toEqual([
      ['storage/session/abc/ses_fixture1.json', true],
      ['storage/session/abc/ses_fixture2.json', true],
    ]);
    expect(walk.passedOver).toBe(1);
    expect(walk.problems).toEqual([]);
  });

  it('the index reads each session once, a second run reads nothing, and the user files are byte-identical with nothing created beside them', async () => {
    const before = snapshot(native);
    const db = openDatabase(join(tmp, 'native.db'));
    try {
      addRoot(db, native);
      const first = await indexDatabase(db, { analyser: 'inline' });
      expect(first).toMatchObject({ filesChanged: 7, filesFailed: 0 });
      const rows = db.prepare("SELECT rel_path, status, agent, findings FROM files WHERE agent = 'opencode' ORDER BY rel_path").all();
      expect(rows).toEqual([
        { rel_path: 'opencode/storage/session/abc/ses_fixture1.json', status: 'ok', agent: 'opencode', findings: 1 },
        { rel_path: 'opencode/storage/session/abc/ses_fixture2.json', status: 'ok', agent: 'opencode', findings: 0 },
      ]);
      const again = await indexDatabase(db, { analyser: 'inline' });
      expect(again).toMatchObject({ filesChanged: 0, filesUnchanged: 7, bytesRead: 0 });
    } finally {
      db.close();
    }
    expect(snapshot(native)).toEqual(before);
  });

  it('a part added to a message, or a message removed, makes its session read again (and only it)', async () => {
    const copy = join(tmp, 'changes');
    cpSync(join(native, 'opencode'), copy, { recursive: true });
    const db = openDatabase(join(tmp, 'changes.db'));
    try {
      addRoot(db, copy);
      await indexDatabase(db, { analyser: 'inline' });
      const calls = () => db.prepare("SELECT tool_calls FROM files WHERE rel_path = 'storage/session/abc/ses_fixture2.json'").pluck().get();
      expect(calls).not.toThrow();
      const before = calls() as number;
      const part = {
        id: 'prt_2999',
        sessionID: 'ses_fixture2',
        messageID: 'msg_2002',
        type: 'tool',
        tool: 'bash',
        callID: 'c',
        state: { status: 'pending', input: {}, raw: '' },
      };
      writeFileSync(join(copy, 'storage/part/msg_2002/prt_2999.json'), JSON.stringify(part, null, 2));
      const added = await indexDatabase(db, { analyser: 'inline' });
      expect(added).toMatchObject({ filesChanged: 1, filesUnchanged: 1 });
      expect(calls()).toBe(before + 1);
      unlinkSync(join(copy, 'storage/part/msg_2002/prt_2999.json'));
      const removed = await indexDatabase(db, { analyser: 'inline' });
      expect(removed).toMatchObject({ filesChanged: 1, filesUnchanged: 1 });
      expect(calls()).toBe(before);
    } finally {
      db.close();
    }
  });

  describe('a damaged or misplaced piece fails its session with a code, naming the piece', () => {
    const cases: Array<[string, (dir: string) => void, string, string]> = [
      [
        'a part cut mid-write',
        (d) => writeFileSync(join(d, 'storage/part/msg_2002/prt_2004.json'), '{"id": "prt_2004", "type": "to'),
        'malformed_json',
        'part/msg_2002/prt_2004.json',
      ],
      [
        'a message that is not UTF-8',
        (d) => writeFileSync(join(d, 'storage/message/ses_fixture2/msg_2002.json'), Buffer.from([0x7b, 0xff, 0x7d])),
        'invalid_utf8',
        'message/ses_fixture2/msg_2002.json',
      ],
      [
        'a part with a duplicate key',
        (d) => writeFileSync(join(d, 'storage/part/msg_2000/prt_2001.json'), '{"id": "prt_2001", "type": "text", "type": "text"}'),
        'duplicate_key',
        'part/msg_2000/prt_2001.json',
      ],
      [
        'a part filed under another message',
        (d) => writeFileSync(join(d, 'storage/part/msg_2000/prt_2001.json'), JSON.stringify({ id: 'prt_2001', messageID: 'msg_2002', type: 'text' })),
        'invalid_structure',
        'part/msg_2000/prt_2001.json',
      ],
      [
        'a message whose id is not its name',
        (d) => writeFileSync(join(d, 'storage/message/ses_fixture2/msg_2000.json'), JSON.stringify({ id: 'msg_9', role: 'user' })),
        'invalid_structure',
        'message/ses_fixture2/msg_2000.json',
      ],
      ['a piece that is not an id', (d) => writeFileSync(join(d, 'storage/part/msg_2000/notes.txt'), 'x'), 'invalid_structure', 'part/msg_2000'],
      // Links are never followed, not even to a piece: the session stops.
      [
        'a part that is a symbolic link',
        (d) => symlinkSync(join(d, 'storage/part/msg_2000/prt_2001.json'), join(d, 'storage/part/msg_2000/prt_2009.json')),
        'path_changed',
        'part/msg_2000/prt_2009.json',
      ],
      [
        "a message's part folder that is a symbolic link",
        (d) => {
          rmSync(join(d, 'storage/part/msg_2000'), { recursive: true });
          symlinkSync(join(d, 'storage/part/msg_2002'), join(d, 'storage/part/msg_2000'));
        },
        'path_changed',
        'part/msg_2000',
      ],
    ];
    it.each(cases)('%s', (label, damage, code, piece) => {
      const copy = join(tmp, `damaged-${label.replace(/\W+/g, '-')}`);
      cpSync(join(native, 'opencode'), copy, { recursive: true });
      damage(copy);
      const old = new Date(Date.now() - 3_600_000);
      for (const name of ['storage/part/msg_2002/prt_2004.json', 'storage/message/ses_fixture2/msg_2002.json']) utimesSync(join(copy, name), old, old);
      const report = runScan([copy]);
      expect(report.errors).toEqual([{ file: 'storage/session/abc/ses_fixture2.json', line: null, code, piece: `storage/${piece}` }]);
      // The other session of the tree is read as before.
      expect(report.summary.files_read_by_agent).toEqual({ opencode: 1 });
    });

    it('for the index, a piece that does not parse and was written in the last 10 minutes is a session being written', async () => {
      const copy = join(tmp, 'writing');
      cpSync(join(native, 'opencode'), copy, { recursive: true });
      writeFileSync(join(copy, 'storage/part/msg_2002/prt_2004.json'), '{"id": "prt_2004", "type": "to');
      const db = openDatabase(join(tmp, 'writing.db'));
      try {
        addRoot(db, copy);
        const run = await indexDatabase(db, { analyser: 'inline' });
        expect(run).toMatchObject({ filesInProgress: 1, filesFailed: 0 });
      } finally {
        db.close();
      }
    });
  });

  it("verify recomputes a storage session's evidence from its pieces: the same bytes match, a changed part does not", async () => {
    const copy = join(tmp, 'verify');
    cpSync(join(native, 'opencode'), copy, { recursive: true });
    const t = await testApp([copy]);
    try {
      const report = (await t.get('/api/export?format=json&files=keep')).body;
      const results = verifyReport(report, [copy], t.db);
      expect(results.map((r) => [r.code, r.status])).toEqual([['unparseable_tool_input', 'match']]);
      // The step-start part before the invalid call gains a key: the export's lines move, the finding's line is another.
      const part = join(copy, 'storage/part/msg_1006/prt_1007.json');
      writeFileSync(part, JSON.stringify({ ...JSON.parse(readFileSync(part, 'utf8')), snapshot: 'abc' }, null, 2));
      expect(verifyReport(report, [copy], t.db).map((r) => r.status)).toEqual(['changed']);
    } finally {
      await t.close();
    }
  });

  it('the session file alone, named as an input, is read with its pieces', () => {
    const one = analyseFile(join(storage, 'session/abc/ses_fixture1.json'));
    expect(reading(one)).toEqual(reading(analyseFile(join(fixturesRoot, 'agents', 'opencode-invalid-call.jsonl'))));
  });
});
