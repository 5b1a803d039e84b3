import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseFileAndSource } from '../../../server/detect/analyse-file';
import { objectLines, readJsonDocument } from '../../../server/scan/agents/read-document';
import { countKeyTokens, countParsedKeys, MAX_NESTING_DEPTH } from '../../../server/scan/duplicate-keys';
import { readHead } from '../../../server/scan/scan-capture';
import { scanFile } from '../../../server/scan/scan-file';
import { fixturesRoot } from '../../support/detector-fixtures';

/**
 * Issue 34 point 6: a JSON document (OpenCode's export, Gemini's chat) is parsed from a Latin-1 view of its UTF-8
 * bytes, and a file that opens with a lone `{` is read as a document first. Both must give exactly what decoding
 * the text and reading it line by line first gave.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-docread-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const fixture = join(fixturesRoot, 'agents/opencode-invalid-call.jsonl');
const write = (name: string, text: string | Buffer) => {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
};
/** A character as a JSON \u escape (two, a surrogate pair, above U+FFFF), as JSON.stringify never writes it. */
const escapeOf = (c: string) =>
  [...c]
    .flatMap((p) => (p.length === 2 ? [p.charCodeAt(0), p.charCodeAt(1)] : [p.charCodeAt(0)]))
    .map((u) => `\\u${u.toString(16).padStart(4, '0')}`)
    .join('');
/** JSON text with every character outside ASCII written as a \u escape (`every`), or every other one (the rest raw). */
const escapeWide = (text: string, every = true) => {
  let n = 0;
  return text.replace(/[\u0080-\u{10ffff}]/gu, (c) => (every || n++ % 2 === 0 ? escapeOf(c) : c));
};

/** The fixture's session, with characters outside ASCII in a title, a text part and an error, and (`wideIds`) in its id and a tool name. */
function wideSession(wideIds: boolean): unknown {
  const value = JSON.parse(readFileSync(fixture, 'utf8'));
  if (wideIds) value.info.id = 'ses_é日本🙂';
  value.info.title = 'naïve — 日本語 🙂';
  const parts = value.messages.flatMap((m: { parts: Record<string, unknown>[] }) => m.parts);
  const text = parts.find((p: Record<string, unknown>) => p.type === 'text');
  text.text = 'déjà vu — ☃';
  const tool = parts.find((p: Record<string, unknown>) => p.type === 'tool');
  if (wideIds) tool.tool = 'outil_é';
  tool.state = { ...tool.state, status: 'error', error: 'Tool execution aborted: arrêté 🙂' };
  return value;
}

const transcriptOf = (path: string, documentFirst: boolean) => {
  const scan = scanFile(path, { documentFirst });
  if (scan.status !== 'ok') throw new Error(`scan ${scan.status}`);
  return { transcript: scan.transcript, lineStarts: scan.lineStarts, agent: scan.agent, version: scan.version, bytes: scan.bytes };
};
const viewOf = (path: string) => {
  const read = readJsonDocument(path);
  return read.status === 'ok' ? read.latin1View : read.status;
};

describe('a document read through a Latin-1 view', () => {
  const pretty = `${JSON.stringify(wideSession(true), null, 2)}\n`;
  const raw = write('wide-raw.jsonl', pretty);

  it('keeps the view for text outside ASCII, raw or escaped, and decodes UTF-8 when a key holds an escape above U+007F', () => {
    expect(viewOf(raw)).toBe(true);
    expect(viewOf(write('wide-some-escaped.jsonl', escapeWide(pretty, false)))).toBe(true);
    // ASCII only (every character escaped, or none outside ASCII): the same string either way, no view.
    expect(viewOf(write('wide-escaped.jsonl', escapeWide(pretty)))).toBe(false);
    expect(viewOf(fixture)).toBe(false);
    const withKey = (key: string) => write('wide-key.jsonl', pretty.replace('"slug": "calm-fox",', `${key}: 1,`));
    expect(pretty).toContain('"slug": "calm-fox",');
    expect(viewOf(withKey('"caf\\u00e9"'))).toBe(false);
    expect(viewOf(withKey('"x\\ud83d\\ude42"'))).toBe(false);
    // Escapes below U+0080, and a backslash written escaped before a `u`, are the same in the view.
    expect(viewOf(withKey('"a\\u001b\\u007f\\n"'))).toBe(true);
    expect(viewOf(withKey('"a\\\\u00e9"'))).toBe(true);
  });

  it('gives the transcript of the text decoded from UTF-8, reading again decoded one that hands on a string outside ASCII', () => {
    for (const wideIds of [false, true]) {
      const text = wideIds ? pretty : `${JSON.stringify(wideSession(false), null, 2)}\n`;
      const [a, b, c] = [text, escapeWide(text, false), escapeWide(text)].map((t, i) => transcriptOf(write(`same-${i}.jsonl`, t), true));
      expect(a!.transcript, String(wideIds)).toEqual(c!.transcript);
      expect(b!.transcript, String(wideIds)).toEqual(c!.transcript);
      const tools = a!.transcript.messages.flatMap((m) => m.toolUses.map((t) => t.name));
      expect(a!.transcript.sessionId).toBe(wideIds ? 'ses_é日本🙂' : 'ses_fixture1');
      expect(tools.includes('outil_é')).toBe(wideIds);
    }
    // The call made aborted is told by its ASCII opening, before characters outside ASCII: one interrupt more.
    expect(transcriptOf(raw, true).transcript.interrupts.length).toBe(transcriptOf(fixture, true).transcript.interrupts.length + 1);
  });

  it('finds a duplicate key written raw twice, and one written raw and as an escape', () => {
    const withKeys = (keys: string) => pretty.replace('"slug": "calm-fox",', keys);
    expect(pretty).toContain('"slug": "calm-fox",');
    for (const [name, keys] of [
      ['dup-raw.jsonl', '"é": 1,\n    "é": 2,'],
      ['dup-mixed.jsonl', '"é": 1,\n    "\\u00e9": 2,'],
    ] as const) {
      const read = readJsonDocument(write(name, withKeys(keys)));
      expect(read.status === 'failed' && read.failure.code, name).toBe('duplicate_key');
    }
    // Two different keys outside ASCII are no duplicate.
    expect(readJsonDocument(write('two-keys.jsonl', withKeys('"é": 1,\n    "è": 2,'))).status).toBe('ok');
  });

  it("counts the keys countKeyTokens counts, in objectLines' one walk", () => {
    for (const text of [pretty, escapeWide(pretty), '{"a":"b","c":["d","e:"],"f":{"g":"h \\" : x"}}', '[{"k":1},{"k":{"\\\\":2}}]'])
      expect(objectLines(text).keys).toBe(countKeyTokens(text));
  });
});

describe('a document parsed in pieces (each element of an array of the root alone)', () => {
  /** A small session-like document: root members, an array of message objects, nested parts, text outside ASCII. */
  const base = (wide: boolean) => ({
    info: { id: 'ses_1', title: wide ? 'caf\u00e9' : 'café ☃', n: [1, 2, { a: null }] },
    messages: [
      { info: { role: 'user', id: 'm1' }, parts: [{ type: 'text', text: 'a "quoted" \\ b, [x]: {y}' }] },
      { info: { role: 'assistant', id: 'm2' }, parts: [{ type: 'tool', state: { input: {}, output: 'é}]' } }, []] },
      3,
      [{ deep: true }],
      { empty: {} },
    ],
    tail: [{ k: 1 }, { k: 2 }],
  });
  const texts = (wide: boolean) => {
    const pretty = JSON.stringify(base(false), null, 2);
    const text = wide ? pretty.replace('café ☃', 'caf\\u00e9 ☃') : pretty;
    return [text, JSON.stringify(JSON.parse(text))];
  };

  it('is exactly one JSON.parse of the whole: the same value, and a failure where it fails', () => {
    let seed = 12345;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const inserts = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', '0', '{"k":1}', '"k":'];
    let split = 0;
    let compared = 0;
    for (const wide of [false, true])
      for (const original of texts(wide))
        for (let round = 0; round < 400; round++) {
          const bytes = Buffer.from(original, 'utf8');
          // An edit at an ASCII byte (UTF-8 stays valid): delete it, or insert a piece of JSON syntax before it.
          let at = next(bytes.length);
          while (bytes[at]! > 0x7f) at = (at + 1) % bytes.length;
          const edit = next(2) === 0 ? '' : inserts[next(inserts.length)]!;
          const text = round === 0 ? original : `${bytes.subarray(0, at).toString()}${edit}${bytes.subarray(at + (edit === '' ? 1 : 0)).toString()}`;
          let expected: unknown;
          try {
            expected = JSON.parse(text);
          } catch {
            expected = undefined;
          }
          const read = readJsonDocument(write('mutant.jsonl', text));
          if (expected === undefined || expected === null || typeof expected !== 'object') {
            expect(read.status, text).toBe('not_a_document');
            continue;
          }
          if (countKeyTokens(text) !== countParsedKeys(expected)) {
            expect(read.status === 'failed' && read.failure.code, text).toBe('duplicate_key');
            continue;
          }
          expect(read.status, text).toBe('ok');
          if (read.status !== 'ok') continue;
          // One parse of the text that was read: the view (one character per byte) or the decoded text.
          expect(read.document.value, text).toEqual(read.latin1View ? JSON.parse(Buffer.from(text, 'utf8').toString('latin1')) : expected);
          compared++;
          if (Array.isArray((expected as { messages?: unknown }).messages)) split++;
        }
    // Both sides of the rule were met many times.
    expect(compared).toBeGreaterThan(300);
    expect(split).toBeGreaterThan(300);
  });

  it('counts nesting from the root in a piece as in the rest: the deepest allowed reads, one deeper fails', () => {
    /** Arrays nested so that the innermost stands at `depth` counted from the root (the root is 1). */
    const nested = (depth: number, from: number) => '['.repeat(depth - from + 1) + ']'.repeat(depth - from + 1);
    for (const depth of [MAX_NESTING_DEPTH, MAX_NESTING_DEPTH + 1]) {
      const inPiece = `{"info":{},"messages":[{"deep":${nested(depth, 4)}}]}`;
      const inSkeleton = `{"info":{"deep":${nested(depth, 3)}},"messages":[{"a":1}]}`;
      const whole = `{"info":{"deep":${nested(depth, 3)}}}`;
      const outcomes = [inPiece, inSkeleton, whole].map((text) => {
        const read = readJsonDocument(write('deep.jsonl', text));
        return read.status === 'failed' ? read.failure.code : read.status;
      });
      expect(outcomes, String(depth)).toEqual(Array(3).fill(depth > MAX_NESTING_DEPTH ? 'nesting_too_deep' : 'ok'));
    }
  });

  it('fails a piece glued to a sign or an exponent, which the 0 of the skeleton would have made a number', () => {
    const pretty = texts(false)[0]!;
    const piece = '\n    {\n      "info": {\n        "role": "assistant"';
    expect(pretty).toContain(piece);
    for (const text of [
      pretty.replace(piece, `\n    -${piece.slice(5)}`),
      pretty.replace('\n    3,', '\n    3,{"k":1}.5,'),
      pretty.replace('\n    3,', '\n    3,{"k":1}e1,'),
    ]) {
      expect(() => JSON.parse(text)).toThrow();
      expect(readJsonDocument(write('glued.jsonl', text)).status).toBe('not_a_document');
    }
  });
});

describe('a file that opens with a lone { is read as a document first', () => {
  const pretty = readFileSync(fixture, 'utf8');
  const jsonl = readFileSync(join(fixturesRoot, 'agents/codex-tail.jsonl'), 'utf8');
  const cases: [string, string | Buffer][] = [
    ['whole.jsonl', pretty],
    ['blank-first.jsonl', `\n  \n${pretty}`],
    ['duplicate.jsonl', pretty.replace('"slug": "calm-fox",', '"slug": "a",\n    "slug": "b",')],
    ['cut.jsonl', pretty.slice(0, pretty.length / 2)],
    ['bad-utf8.jsonl', Buffer.concat([Buffer.from(pretty.slice(0, 200)), Buffer.from([0xff]), Buffer.from(pretty.slice(200))])],
    ['rows.jsonl', jsonl],
  ];

  it('tells a document opening from a row in the first bytes', () => {
    expect(readHead(write('h1.jsonl', '{\n  "a": 1\n}\n')).documentStart).toBe(true);
    expect(readHead(write('h2.jsonl', '\n \r\n[\n1]\n')).documentStart).toBe(true);
    expect(readHead(write('h3.jsonl', '{"type":"user"}\n')).documentStart).toBe(false);
    // A `{` with nothing after it may be a row still being written.
    expect(readHead(write('h4.jsonl', '{')).documentStart).toBe(false);
    expect(readHead(write('h5.jsonl', jsonl)).documentStart).toBe(false);
  });

  it('with the same outcome as reading it line by line first', () => {
    for (const [name, text] of cases) {
      const path = write(name, text);
      const first = scanFile(path, { documentFirst: true });
      const usual = scanFile(path, { documentFirst: false });
      expect(first, name).toEqual(usual);
    }
    // The index's and scan's path takes the shortcut, to the same analysis.
    const a = analyseFileAndSource(join(tmp, 'whole.jsonl'));
    expect(a.analysis.status).toBe('ok');
    expect(a.source?.kind === 'transcript' && a.source.transcript.agent).toBe('opencode');
  });
});
