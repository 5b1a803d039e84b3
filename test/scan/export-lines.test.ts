import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentOfText, exportDocument, objectLines, stringifiedLines } from '../../server/scan/agents/read-document';
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
const scanned = (v: unknown) => {
  const { lines, firstLine } = objectLines(printed(v));
  return { lines, firstLine };
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
      expect(stringifiedLines(value)).toEqual(scanned(value));
      expect((stringifiedLines(value) as { lines: Map<string, number> }).lines.size).toBeGreaterThan(10);
    }
    const seed = { s: 11 };
    for (let i = 0; i < 300; i++) {
      const value = { info: randomValue(seed, 0), messages: [randomValue(seed, 0), randomValue(seed, 0)] };
      expect(stringifiedLines(value)).toEqual(scanned(value));
    }
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
      const objects = [...(stringifiedLines(value) as { lines: Map<string, number> }).lines.values()];
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
