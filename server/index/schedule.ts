import type { IndexAnalysis } from './analyse-for-index';
import type { AnalysedBatch } from './analysis-batch';
import type { Analyser } from './analysis-pool';
import type { FileJob } from './index-store';
import { SLICE_MS, yieldSoon } from './plan-root';

const BATCH_BYTES = 2 * 1024 * 1024;
/**
 * At most this many files per batch: a batch's results are deserialized on the writer's thread
 * in one go, and thousands of tiny files' results took that thread away for 100 ms and more.
 */
const BATCH_FILES = 200;
/** Files analysed ahead of the writer, at most (see analyseAndWrite). */
const MAX_FILES_AHEAD = 800;

export interface ScheduleOptions {
  analyser: Analyser;
  /** True when the analyser runs worker threads: batches and several in flight pay off. */
  parallel: boolean;
  salvageOf: (rootId: number) => boolean;
  /** Writes one file's results (the single writer, on this thread); called in plan order. */
  write: (job: FileJob, analysis: IndexAnalysis) => void;
  /** Called between slices of writing (the run renews its lock there). */
  onSlice: () => void;
}

/** Batches of about 2 MB (a big file travels alone): fewer round trips to the workers. */
async function batchesOf(jobs: readonly FileJob[], parallel: boolean): Promise<FileJob[][]> {
  const batches: FileJob[][] = [];
  let batch: FileJob[] = [];
  let batchBytes = 0;
  let since = performance.now();
  for (const job of jobs) {
    // 100,000 files took this loop 30-80 ms: yield like the walk and the writer do.
    if (performance.now() - since >= SLICE_MS) {
      await yieldSoon();
      since = performance.now();
    }
    if (batch.length > 0 && (!parallel || batchBytes + job.size > BATCH_BYTES || batch.length >= BATCH_FILES)) {
      batches.push(batch);
      batch = [];
      batchBytes = 0;
    }
    batch.push(job);
    batchBytes += job.size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * Analyses the planned files (in the analyser's workers) and writes each one's results (here),
 * in plan order whatever order the workers finish in, so two clean indexes of the same folders
 * give every row the same id and every list the same order.
 */
export async function analyseAndWrite(jobs: readonly FileJob[], options: ScheduleOptions): Promise<void> {
  const { analyser, parallel } = options;
  const batches = await batchesOf(jobs, parallel);
  let next = 0;
  // Keep the pool's queue full, or the workers idle between round trips.
  const inFlight = parallel ? 16 : 1;
  const ready = new Map<number, AnalysedBatch>();
  let written = 0;
  let writing = false;
  // Back-pressure: analysis runs at most this many batches ahead of the writer, so results
  // waiting to be written (and the heap, and its GC pauses) stay bounded however many files.
  const maxAhead = inFlight * 2;
  // And at most this many files: each batch's results wait as one block of bytes (analysis-batch.ts)
  // that is freed by a scavenge only if it is written before it has survived two; 32 batches of
  // 200 tiny files waited ~1 s behind the writer, were promoted, and ~60 MB of them waited for a
  // major collection. Batches of large files hold few files each, so this never limits them.
  let filesAhead = 0;
  const waiting: Array<() => void> = [];
  const roomAhead = async () => {
    while (next - written >= maxAhead || (next > written && filesAhead >= MAX_FILES_AHEAD)) {
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  const drain = async () => {
    if (writing) return;
    writing = true;
    try {
      let since = performance.now();
      while (ready.has(written)) {
        const group = batches[written]!;
        const analyses = ready.get(written)!;
        ready.delete(written);
        written++;
        filesAhead -= group.length;
        for (const resolve of waiting.splice(0)) resolve();
        for (let i = 0; i < group.length; i++) {
          options.write(group[i]!, analyses.at(i));
          // A batch of thousands of tiny files must not hold the event loop (the server's).
          if (performance.now() - since >= SLICE_MS) {
            options.onSlice();
            await yieldSoon();
            since = performance.now();
          }
        }
      }
    } finally {
      writing = false;
    }
  };
  const lane = async () => {
    for (;;) {
      await roomAhead();
      if (next >= batches.length) return;
      const at = next++;
      const group = batches[at]!;
      filesAhead += group.length;
      ready.set(
        at,
        await analyser.analyse(
          group.map((j) => j.path),
          group.map((j) => options.salvageOf(j.rootId)),
        ),
      );
      await drain();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  await drain();
}
