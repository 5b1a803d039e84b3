import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import { hasDuplicateKey } from '../../server/scan/duplicate-keys';
import { SCAN_ERROR_CODES } from '../../shared/scan-errors';
import { fixturesRoot } from '../support/detector-fixtures';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-prop-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const seeds = [
  'detectors/missing_tool_use_block/positive-interleaved.jsonl',
  'detectors/text_leaked_tool_call/positive-caught-by-nudge.jsonl',
  'detectors/repeated_empty_tool_call/positive-run-of-four.jsonl',
  'detectors/orphan_tool_use/negative-interrupted-by-user.jsonl',
  'detectors/orphan_tool_use/negative-compaction-with-progress.jsonl',
  'detectors/unparseable_tool_input/transcript-positive-bad-shapes.jsonl',
  'detectors/empty_tool_input_with_error_result/positive-error-result-before-call.jsonl',
].map((f) => readFileSync(join(fixturesRoot, f)));

/** Byte-level mutations a damaged or half-written transcript could show. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 12 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicateLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }),
  // A lost newline: two rows on one line (a Claude Code writer bug after an unclean exit).
  fc.record({ kind: fc.constant('joinLines' as const), at: fc.nat() }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function apply(buf: Buffer, m: Mutation): Buffer {
  const at = 'at' in m ? (buf.length === 0 ? 0 : m.at % buf.length) : 0;
  switch (m.kind) {
    case 'flip':
      return Buffer.concat([buf.subarray(0, at), Buffer.from([m.byte]), buf.subarray(at + 1)]);
    case 'delete':
      return Buffer.concat([buf.subarray(0, at), buf.subarray(at + m.length)]);
    case 'insert':
      return Buffer.concat([buf.subarray(0, at), Buffer.from(m.bytes), buf.subarray(at)]);
    case 'truncate':
      return buf.subarray(0, at);
    case 'duplicateLine': {
      const lines = buf.toString('latin1').split('\n');
      lines.splice(m.at % lines.length, 0, lines[m.at % lines.length]!);
      return Buffer.from(lines.join('\n'), 'latin1');
    }
    case 'swapLines': {
      const lines = buf.toString('latin1').split('\n');
      [lines[m.a % lines.length], lines[m.b % lines.length]] = [lines[m.b % lines.length]!, lines[m.a % lines.length]!];
      return Buffer.from(lines.join('\n'), 'latin1');
    }
    case 'joinLines': {
      const newline = buf.indexOf(0x0a, at);
      return newline < 0 ? buf : Buffer.concat([buf.subarray(0, newline), buf.subarray(newline + 1)]);
    }
  }
}

describe('property: damaged transcripts never crash the scanner', () => {
  it('every mutated file ends ok (with findings or none), failed with a known code and a line, or in progress', () => {
    let n = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: seeds.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        (seed, mutations, forIndex, salvage) => {
          const bytes = mutations.reduce<Buffer>((b, m) => apply(b, m), seeds[seed]!);
          const path = join(tmp, `m${n++}.jsonl`);
          writeFileSync(path, bytes);
          const a = analyseFile(path, { forIndex, salvage });
          if (a.status === 'failed') {
            expect(SCAN_ERROR_CODES).toContain(a.failure.code);
            if (a.failure.code !== 'unreadable') expect(a.failure.line).toBeGreaterThan(0);
          } else if (a.status === 'in_progress') {
            expect(forIndex).toBe(true);
            expect(bytes.at(-1)).not.toBe(0x0a);
          } else {
            for (const f of a.findings) expect(f.evidenceSha256).toMatch(/^[0-9a-f]{64}$/);
            // Damaged lines are read around only when salvage was asked for, and each is labelled with a code and a line.
            if (!salvage) expect(a.salvaged ?? []).toEqual([]);
            for (const d of a.salvaged ?? []) {
              expect(['concatenated_rows', 'malformed_json']).toContain(d.code);
              expect(d.line).toBeGreaterThan(0);
              expect(d.rowsKept).toBeGreaterThan(0);
            }
          }
          rmSync(path);
        },
      ),
      { numRuns: 400, seed: 20261202 },
    );
  });
});

describe('property: duplicate keys', () => {
  it('JSON that JSON.stringify wrote never has a duplicate key', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => !hasDuplicateKey(JSON.stringify(v), JSON.parse(JSON.stringify(v)))),
      { numRuns: 500, seed: 7 },
    );
  });
  it('repeating any key of any object is always caught', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 }), fc.nat(), (obj, i) => {
        const keys = Object.keys(obj);
        const key = keys[i % keys.length]!;
        const text = JSON.stringify(obj).replace(/}$/, `,${JSON.stringify(key)}:0}`);
        return hasDuplicateKey(text, JSON.parse(text));
      }),
      { numRuns: 500, seed: 11 },
    );
  });
});

describe('property: stream deltas', () => {
  it('any split of a valid tool input into input_json_delta chunks reassembles to the same value', async () => {
    const { CaptureBuilder } = await import('../../server/scan/build-capture');
    const { sameJson } = await import('../../server/detect/capture/input-mismatch-capture');
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 })), fc.array(fc.nat(), { maxLength: 12 }), (input, cuts) => {
        const json = JSON.stringify(input);
        const points = [...new Set(cuts.map((c) => c % (json.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points, json.length].flatMap((p, i, all) => (i === 0 ? [] : [json.slice(all[i - 1], p)]));
        let parsed: unknown;
        const b = new CaptureBuilder('sse', [{ toolInput: (_block, input) => (parsed = input) }]);
        let line = 1;
        b.addEvent({ type: 'message_start', message: { id: 'm', model: 'x' } }, line++);
        b.addEvent({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'n', input: {} } }, line++);
        for (const c of chunks) b.addEvent({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: c } }, line++);
        b.addEvent({ type: 'content_block_stop', index: 0 }, line++);
        const block = b.build().messages[0]!.blocks[0]!;
        return block.unparseable === false && sameJson(parsed, JSON.parse(json));
      }),
      { numRuns: 500, seed: 3 },
    );
  });
});
