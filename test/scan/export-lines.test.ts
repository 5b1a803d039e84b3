import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentOfText, exportDocument, type LineNode, lineOfTree, objectLines, stringifiedLines } from '../../server/scan/agents/read-document';
import { MAX_NESTING_DEPTH } from '../../server/scan/duplicate-keys';
import { digestBytes } from '../../server/scan/evidence-digest';
import { LineStarts, type LineTable } from '../../server/scan/read-lines';

/**
 * A session of OpenCode's database is read from its value (issue 38/34: no text scan): the line of each object's
 * opening brace is computed from the value's structure. It must be exactly what scanning the printed export finds.
 */
const printed = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** Where each line that holds anything starts, counted apart from the scanner: split at every \n. */
function lineStartsOf(bytes: Buffer): LineStarts {
  const starts = new LineStarts();
  let offset = 0;
  const lines = bytes.toString('latin1').split('\n');
  lines.forEach((text, i) => {
    const last = i === lines.length - 1;
    if (text.length > 0) starts.push(i + 1, offset, text.length + (last ? 0 : 1));
    offset += text.length + 1;
  });
  starts.count = lines.at(-1) === '' ? lines.length - 1 : lines.length;
  starts.endOfData = bytes.length;
  return starts;
}
/** What a line table answers: its count, its end, and each line's span (or that it has none), one line past the last too. */
function answers(table: LineTable): unknown[] {
  const spans: unknown[] = [table.count, table.endOfData];
  for (let line = 0; line <= table.count + 1; line++) {
    try {
      spans.push(table.span(line));
    } catch (error) {
      spans.push(error instanceof RangeError ? 'none' : error);
    }
  }
  return spans;
}
/** Every object's line in a line tree, keyed by its path (JSON of its segments: keys as strings, indexes as numbers), read apart from lineOfTree. */
function lineMap(tree: LineNode): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (node: LineNode, path: (string | number)[]) => {
    if (node.line > 0) out.set(JSON.stringify(path), node.line);
    if (node.kids instanceof Map) for (const [k, kid] of node.kids) visit(kid, [...path, k]);
    else if (node.kids !== null) for (const [i, kid] of node.kids.entries()) if (kid !== undefined) visit(kid, [...path, i]);
  };
  visit(tree, []);
  return out;
}
const scanned = (v: unknown) => {
  const { lines, firstLine } = objectLines(printed(v));
  return { lines: lineMap(lines), firstLine };
};
const walked = (v: unknown) => {
  const walk = stringifiedLines(v);
  if (walk === 'too_deep') throw new Error('too deep');
  return { lines: lineMap(walk.lines), firstLine: walk.firstLine };
};

/** Deterministic values with every shape stringify treats apart. */
function randomValue(seed: { s: number }, depth: number): unknown {
  const next = () => {
    seed.s = (seed.s * 1103515245 + 12345) % 2147483648;
    return seed.s;
  };
  const k = next() % (depth > 9 ? 5 : 10);
  if (k === 0) return null;
  if (k === 1) return next() % 1000;
  if (k === 2) return ['plain', 'with "quotes" and \\ and\nnewline', 'ünïcødé ✓ 😀', '{not [an object', ''][next() % 5];
  if (k === 3) return next() % 2 === 0;
  if (k === 4) return next() % 3 === 0 ? {} : [];
  if (k < 7) return Array.from({ length: next() % 4 }, (_, i) => (i === 1 && next() % 4 === 0 ? undefined : randomValue(seed, depth + 1)));
  const o: Record<string, unknown> = {};
  for (let i = next() % 5; i > 0; i--) {
    const key = ['a', 'id', '0', '12', 'k"q', 'new\nline', '__proto__', 'messages', 'parts'][next() % 9]!;
    const value = next() % 6 === 0 ? undefined : randomValue(seed, depth + 1);
    // `__proto__` as JSON.parse makes it (an own key), or as an assignment does (the prototype: inherited keys stringify leaves out).
    if (key === '__proto__' && next() % 2 === 0) Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
    else o[key] = value;
  }
  return o;
}

describe("an export's object lines from its value", () => {
  it('equal the lines found by scanning the printed export: fixtures and 300 generated values', () => {
    for (const name of ['opencode-invalid-call.jsonl', 'opencode-pending.jsonl']) {
      const value = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/agents', name), 'utf8'));
      expect(walked(value)).toEqual(scanned(value));
      expect(walked(value).lines.size).toBeGreaterThan(10);
    }
    const seed = { s: 11 };
    for (let i = 0; i < 300; i++) {
      const value = { info: randomValue(seed, 0), messages: [randomValue(seed, 0), randomValue(seed, 0)] };
      expect(walked(value)).toEqual(scanned(value));
      // Each recorded object is found by its path, and nothing below it that is not an object.
      const { lines } = objectLines(printed(value));
      for (const [path, line] of lineMap(lines)) {
        const segments = JSON.parse(path) as (string | number)[];
        expect(lineOfTree(lines, segments)).toBe(line);
        expect(lineOfTree(lines, [...segments, 'length'])).toBeNull();
      }
    }
  });

  it('are looked up as a path of keys and indexes: an index also as its text, never a container that is not an object', () => {
    const text = '{\n  "a": [\n    {"b": 1},\n    2,\n    {"c": {}},\n    [{"d": {}}]\n  ],\n  "0": {}\n}\n';
    const { lines } = objectLines(text);
    const at = (...path: (string | number)[]) => lineOfTree(lines, path);
    expect([at(), at('a', 0), at('a', '0'), at('a', 2), at('a', 2, 'c'), at('a', 3, 0), at('0'), at(0)]).toEqual([1, 3, 3, 5, 5, 6, 8, 8]);
    for (const missing of [
      at('a'),
      at('a', 1),
      at('a', 3),
      at('a', '00'),
      at('a', '-1'),
      at('a', 1.5),
      at('a', 'length'),
      at('length'),
      at('a', 2, 'c', 'x'),
      at('b'),
    ])
      expect(missing).toBeNull();
  });

  it('a document built in memory, never printed, has the printed export line count, byte count and evidence digests', () => {
    const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/agents/opencode-invalid-call.jsonl'), 'utf8'));
    fixture.info.title = 'ünïcødé ✓ 😀 "quoted"\n';
    fixture.messages[0].parts.push({ id: 'p', empty: {}, list: [{}, [], { a: undefined }], nums: [1.5, -0, 1e21, -3.25e-7, 0.1 + 0.2, 2 ** 60], last: {} });
    const seed = { s: 5 };
    for (const value of [
      fixture,
      ...Array.from({ length: 200 }, () => ({ info: randomValue(seed, 0), messages: [randomValue(seed, 0), randomValue(seed, 0)] })),
    ]) {
      const built = exportDocument(value);
      if (typeof built === 'string') throw new Error(built);
      const text = printed(value);
      const bytes = Buffer.from(text);
      expect(built.bytes).toBe(bytes.length);
      expect(built.document.lineCount).toBe(text.split('\n').length - 1);
      expect(built.document.endsWithNewline).toBe(true);
      // Digests of object lines (computed from the value), of other lines (from the text, made on demand), of both.
      const reference = lineStartsOf(bytes);
      expect(answers(documentOfText(value, bytes).lineStarts)).toEqual(answers(reference));
      const objects = [...walked(value).lines.values()];
      const count = built.document.lineCount;
      for (const lines of [objects, [objects.at(-1)!, objects[0]!], [count], [2, count - 1, objects.at(-1)!]]) {
        const wanted = lines.filter((l) => reference.span(l)[1] > reference.span(l)[0]);
        expect(built.digest!(wanted)).toBe(digestBytes(bytes, reference, wanted));
      }
    }
  });

  it("the scan's line starts are every non-empty line's, with or without a last newline, blank lines and \\r\\n", () => {
    for (const text of ['{"a": 1}', '{"a": 1}\n', '\n\n{\n  "a": [\n\n    1\n  ]\n}\n\n', '{\r\n  "a": 1\r\n}\r\n', ' \n{}', '{}\n \n']) {
      const bytes = Buffer.from(text);
      expect(answers(documentOfText(JSON.parse(text), bytes).lineStarts), JSON.stringify(text)).toEqual(answers(lineStartsOf(bytes)));
    }
  });

  it('nesting deeper than a file may hold is too deep, as the file reader says', () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_NESTING_DEPTH; i++) deep = [deep];
    expect(stringifiedLines(deep)).not.toBe('too_deep');
    expect(stringifiedLines([deep])).toBe('too_deep');
    expect(exportDocument({ a: deep })).toBe('too_deep');
  });
});
