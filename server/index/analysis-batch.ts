import { deserialize, serialize } from 'node:v8';
import type { IndexAnalysis } from './analyse-for-index';

/**
 * A batch of analyses as it crosses from a worker thread: every file's analysis serialized
 * (v8's structured-clone format, the same a message would use) into one byte array, with where
 * each one ends. Two objects cross instead of the object graph of up to 200 files, and the
 * writer turns each file back into objects only when it writes that file: the objects die young
 * (one scavenge), instead of waiting in the queue long enough to be promoted to the old generation
 * and grow the heap until a major collection (at 100,000 tiny files that grew it to ~250 MB).
 */
export interface EncodedAnalyses {
  bytes: Uint8Array;
  /** Per file: the offset in `bytes` where its analysis ends (the next one starts there). */
  ends: Uint32Array;
}

/** Analyses ready to be written, decoded one at a time. */
export interface AnalysedBatch {
  readonly length: number;
  /** File i's analysis (a fresh decode each call: take each once). */
  at(i: number): IndexAnalysis;
  /**
   * Called once every analysis taken from the batch is done with (nothing may still hold one).
   * Its bytes are handed over to a throwaway owner (a transfer, no copy), so they are freed at the
   * next scavenge even when the batch itself was promoted: promoted batches' bytes otherwise waited
   * outside the heap for a major collection (~60 MB at 100,000 tiny files, V8's external-memory limit).
   */
  release(): void;
}

export function encodeAnalyses(analyses: Iterable<IndexAnalysis>): EncodedAnalyses {
  const parts: Buffer[] = [];
  let total = 0;
  for (const analysis of analyses) {
    const part = serialize(analysis);
    parts.push(part);
    total += part.length;
  }
  const bytes = new Uint8Array(total);
  const ends = new Uint32Array(parts.length);
  let at = 0;
  parts.forEach((part, i) => {
    bytes.set(part, at);
    at += part.length;
    ends[i] = at;
  });
  return { bytes, ends };
}

export function decodedBatch({ bytes, ends }: EncodedAnalyses): AnalysedBatch {
  return {
    length: ends.length,
    at: (i) => deserialize(bytes.subarray(i === 0 ? 0 : ends[i - 1]!, ends[i]!)) as IndexAnalysis,
    release: () => {
      if (bytes.buffer.byteLength > 0) structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
    },
  };
}

/** Analyses already in objects (the inline analyser). */
export function plainBatch(analyses: readonly IndexAnalysis[]): AnalysedBatch {
  return { length: analyses.length, at: (i) => analyses[i]!, release: () => {} };
}
