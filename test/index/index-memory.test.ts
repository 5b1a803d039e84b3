/**
 * The pieces that keep an index run's memory proportional (README, "Memory at 100,000 files"):
 * analyses crossing from a worker as bytes, the plan kept in columns, the writer in plan order
 * releasing each batch, and one worker for plans of small files.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexAnalysis } from '../../server/index/analyse-for-index';
import { type AnalysedBatch, decodedBatch, encodeAnalyses, plainBatch } from '../../server/index/analysis-batch';
import type { Analyser } from '../../server/index/analysis-pool';
import { FilePlan } from '../../server/index/file-plan';
import { analysisThreads } from '../../server/index/index-folders';
import { analyseAndWrite } from '../../server/index/schedule';
import type { FileJob, IndexRoot } from '../../server/index/storage-port';
import { childPath } from '../../server/scan/file-name-bytes';

const ok = (n: number): IndexAnalysis =>
  ({
    status: 'ok',
    format: 'transcript',
    bytes: 200 + n,
    lineCount: n,
    endsWithNewline: true,
    assistantMessages: 2,
    findings: [],
    diagnostics: [],
    messages: {
      cells: [{ day: '2026-05-01', version: '2.1.40', model: 'claude-opus-4-6', sidechain: false }],
      cell: Uint32Array.from([0, 0]),
      hash: BigInt64Array.from([-4696315474800790810n, BigInt(n)]),
      toolUse: Uint8Array.from([1, 0]),
      stopKnown: Uint8Array.from([1, 1]),
      synthetic: Uint8Array.from([0, 1]),
      capture: false,
    },
    facts: { firstTimestamp: null, lastTimestamp: '2026-05-01T10:00:00.000Z', sessionHash: 'abcdef0123456789', sidechain: false, sessionEnd: null },
  }) as unknown as IndexAnalysis;
const failed = { status: 'failed', failure: { code: 'line_too_long', line: 3 } } as unknown as IndexAnalysis;

describe('analyses as bytes', () => {
  it('decode to what was encoded, typed arrays with their own types', () => {
    const analyses = [ok(1), failed, ok(7)];
    const batch = decodedBatch(structuredClone(encodeAnalyses(analyses)));
    expect(batch.length).toBe(3);
    const back = Array.from({ length: batch.length }, (_, i) => batch.at(i));
    expect(back).toEqual(analyses);
    const messages = (back[2] as Extract<IndexAnalysis, { status: 'ok' }>).messages;
    expect(messages.hash).toBeInstanceOf(BigInt64Array);
    expect(messages.cell).toBeInstanceOf(Uint32Array);
    expect(messages.hash[1]).toBe(7n);
  });

  it('an empty batch decodes to nothing', () => {
    expect(decodedBatch(encodeAnalyses([])).length).toBe(0);
  });

  it('release hands the bytes away (freed without waiting for a major collection)', () => {
    const encoded = encodeAnalyses([ok(1), ok(2)]);
    const batch = decodedBatch(encoded);
    expect(encoded.bytes.buffer.byteLength).toBeGreaterThan(0);
    batch.release();
    expect(encoded.bytes.buffer.byteLength).toBe(0);
  });
});

const root = (id: number, path: string): IndexRoot => ({ id, path, label: `r${id}`, salvage: 0 });
const job = (relPath: string, path: string, size: number, n = 0): Omit<FileJob, 'rootId'> => ({
  relPath,
  path,
  size,
  mtimeMs: 1_700_000_000_000.5 + n,
  fingerprint: `${n}`.padStart(64, '0'),
  previousFindings: n % 3,
});

describe('the plan in columns', () => {
  it('gives back every job as added, deriving plain paths from the root and keeping the others', () => {
    const plan = new FilePlan();
    const a = root(1, '/data/a');
    const b = root(2, '/');
    const added: FileJob[] = [
      { rootId: 1, ...job('p1/s1.jsonl', childPath('/data/a', 'p1/s1.jsonl'), 10, 1) },
      { rootId: 2, ...job('top.jsonl', '/top.jsonl', 20, 2) },
      // A name that is not plain UTF-8 reaches the file through a marked path the plan cannot rebuild from the name alone.
      { rootId: 1, ...job('p1/odd\\xff.jsonl', '\u0000/data/a/p1\u0000odd-raw', 30, 3) },
    ];
    plan.add(a, added[0]!);
    plan.add(b, added[1]!);
    plan.add(a, added[2]!);
    expect(plan.length).toBe(3);
    expect(plan.bytes).toBe(60);
    expect([0, 1, 2].map((k) => plan.jobAt(k))).toEqual(added);
    plan.sortLargestFirst();
    expect([0, 1, 2].map((k) => plan.jobAt(k))).toEqual([added[2], added[1], added[0]]);
    plan.truncate(1);
    expect(plan.length).toBe(1);
    expect(plan.bytes).toBe(10);
    expect(plan.jobAt(0)).toEqual(added[0]);
  });

  it('sorts largest first, ties in plan order, like a stable sort of the jobs (also past the packed range)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(2 ** 40), fc.integer({ min: 0, max: 2 ** 33 - 1 })), { maxLength: 60 }),
        (sizes) => {
          const plan = new FilePlan();
          const r = root(1, '/r');
          for (const [i, size] of sizes.entries()) plan.add(r, job(`f${i}.jsonl`, `/r/f${i}.jsonl`, size, i));
          plan.sortLargestFirst();
          const expected = sizes
            .map((size, i) => ({ size, name: `f${i}.jsonl` }))
            .sort((x, y) => y.size - x.size)
            .map((x) => x.name);
          expect(sizes.map((_, k) => plan.jobAt(k).relPath)).toEqual(expected);
          expect(sizes.map((_, k) => plan.sizeAt(k))).toEqual([...sizes].sort((x, y) => y - x));
        },
      ),
    );
  });
});

describe('the writer', () => {
  it('writes in plan order whatever order batches finish in, and releases each batch once, after its files', async () => {
    const plan = new FilePlan();
    const r = root(1, '/r');
    for (let i = 0; i < 1000; i++) plan.add(r, job(`f${i}.jsonl`, `/r/f${i}.jsonl`, 100, i));
    const events: string[] = [];
    let call = 0;
    const analyser: Analyser = {
      analyse: async (paths) => {
        // Later batches finish first, sometimes.
        const delay = (call++ * 7) % 5;
        for (let i = 0; i < delay; i++) await new Promise((resolve) => setImmediate(resolve));
        const inner = plainBatch(paths.map((_, i) => ok(i)));
        const batch: AnalysedBatch = { length: inner.length, at: (i) => inner.at(i), release: () => events.push(`release ${paths[0]}`) };
        return batch;
      },
      close: async () => {},
    };
    const written: string[] = [];
    await analyseAndWrite(plan, {
      analyser,
      parallel: true,
      salvageOf: () => false,
      onSlice: () => {},
      write: (files) => {
        // One call per slice of writing, never spanning two batches.
        const slice = [...files];
        expect(new Set(slice.map(({ job }) => Math.floor(Number(job.relPath.slice(1, -6)) / 200))).size).toBe(1);
        for (const { job: j } of slice) {
          written.push(j.relPath);
          events.push(`write ${j.path}`);
        }
      },
    });
    expect(written).toEqual(Array.from({ length: 1000 }, (_, i) => `f${i}.jsonl`));
    // 200 files a batch: five releases, each right after its batch's last write.
    const releases = events.flatMap((e, i) => (e.startsWith('release') ? [i] : []));
    expect(releases).toHaveLength(5);
    releases.forEach((at, b) => {
      expect(events[at]).toBe(`release /r/f${b * 200}.jsonl`);
      expect(events[at - 1]).toBe(`write /r/f${b * 200 + 199}.jsonl`);
    });
  });
});

describe('analysis threads', () => {
  it('one for a plan of small files, one per core otherwise', () => {
    expect(analysisThreads(100_000 * 218, 100_000, 2)).toBe(1);
    expect(analysisThreads(300e6, 1_000, 2)).toBe(2);
    expect(analysisThreads(300e6, 1_000, 0)).toBe(1);
  });
});
