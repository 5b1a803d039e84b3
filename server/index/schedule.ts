import type { IndexAnalysis } from './analyse-for-index';
import type { AnalysedBatch } from './analysis-batch';
import type { Analyser } from './analysis-pool';
import type { FilePlan } from './file-plan';
import { SLICE_MS, yieldSoon } from './plan-folder';
import type { FileJob } from './storage-port';

const BATCH_BYTES = 2 * 1024 * 1024;
/**
 * At most this many files per batch: a batch's results are deserialized on the writer's thread
 * in one go, and thousands of tiny files' results took that thread away for 100 ms and more.
 */
const BATCH_FILES = 200;

export interface ScheduleOptions {
  analyser: Analyser;
  /** True when the analyser runs worker threads: batches and several in flight pay off. */
  parallel: boolean;
  /**
   * Files analysed on this thread are written a batch at a time too (the CLI, which no one watches file by file):
   * 258 OpenCode exports of 65 MB committed 43 ms of CPU one file at a time, each commit appending again the WAL
   * pages it touched. Without it (serve's small runs), one file per batch: progress, and a run's lock, move file by file.
   */
  batchInline?: boolean;
  salvageOf: (rootId: number) => boolean;
  /**
   * Writes files' results (the single writer, on this thread), in one transaction; called in plan
   * order with the files of one slice of writing (at most one batch), which must be taken in one
   * pass inside the transaction: each is decoded as it is taken.
   */
  write: (files: Iterable<{ job: FileJob; analysis: IndexAnalysis }>) => void;
  /** Called between slices of writing (the run renews its lock there). */
  onSlice: () => void;
}

/**
 * Batches of about 2 MB (a big file travels alone): fewer round trips to the workers, and fewer commits (when
 * `batched`; else a file each). Each batch is the run-order position of its first file (the last ends where the
 * next starts).
 */
async function batchStarts(plan: FilePlan, batched: boolean): Promise<number[]> {
  const starts: number[] = [];
  let files = 0;
  let batchBytes = 0;
  let since = performance.now();
  for (let k = 0; k < plan.length; k++) {
    // 100,000 files took this loop 30-80 ms: yield like the walk and the writer do.
    if (performance.now() - since >= SLICE_MS) {
      await yieldSoon();
      since = performance.now();
    }
    const size = plan.sizeAt(k);
    if (files === 0 || !batched || batchBytes + size > BATCH_BYTES || files >= BATCH_FILES) {
      starts.push(k);
      files = 0;
      batchBytes = 0;
    }
    files++;
    batchBytes += size;
  }
  return starts;
}

/**
 * Analyses the planned files (in the analyser's workers) and writes each one's results (here),
 * in plan order whatever order the workers finish in, so two clean indexes of the same folders
 * give every row the same id and every list the same order.
 */
export async function analyseAndWrite(plan: FilePlan, options: ScheduleOptions): Promise<void> {
  const { analyser, parallel } = options;
  const starts = await batchStarts(plan, parallel || options.batchInline === true);
  // Each batch's jobs, made when it is sent to a worker and dropped once it is written.
  const jobs = new Map<number, FileJob[]>();
  const batchJobs = (b: number): FileJob[] => {
    const end = b + 1 < starts.length ? starts[b + 1]! : plan.length;
    return Array.from({ length: end - starts[b]! }, (_, i) => plan.jobAt(starts[b]! + i));
  };
  let next = 0;
  // Keep the pool's queue full, or the workers idle between round trips.
  const inFlight = parallel ? 16 : 1;
  const ready = new Map<number, AnalysedBatch>();
  let written = 0;
  let writing = false;
  // Back-pressure: analysis runs at most this many batches ahead of the writer, so results
  // waiting to be written (and the heap, and its GC pauses) stay bounded however many files.
  const maxAhead = inFlight * 2;
  // Waiting results are one block of bytes per batch (analysis-batch.ts; 32 batches of 200 tiny
  // files: ~4.5 MB), released as soon as the batch is written.
  const waiting: Array<() => void> = [];
  const roomAhead = async () => {
    while (next - written >= maxAhead) await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const drain = async () => {
    if (writing) return;
    writing = true;
    try {
      let since = performance.now();
      while (ready.has(written)) {
        const group = jobs.get(written)!;
        const analyses = ready.get(written)!;
        ready.delete(written);
        jobs.delete(written);
        written++;
        for (const resolve of waiting.splice(0)) resolve();
        // One transaction per slice of writing (a commit per file wrote several WAL pages for each
        // tiny file). The files are decoded inside it, as the transaction takes them, and the slice
        // ends once SLICE_MS have passed, decoding and writing both counted, or with the batch.
        let i = 0;
        const slice = function* () {
          while (i < group.length) {
            yield { job: group[i]!, analysis: analyses.at(i) };
            i++;
            if (performance.now() - since >= SLICE_MS) return;
          }
        };
        while (i < group.length) {
          options.write(slice());
          // A batch of thousands of tiny files must not hold the event loop (the server's).
          if (performance.now() - since >= SLICE_MS) {
            options.onSlice();
            await yieldSoon();
            since = performance.now();
          }
        }
        analyses.release();
      }
    } finally {
      writing = false;
    }
  };
  const lane = async () => {
    for (;;) {
      await roomAhead();
      if (next >= starts.length) return;
      const at = next++;
      const group = batchJobs(at);
      jobs.set(at, group);
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
