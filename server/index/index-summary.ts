import type { IndexAnalysis } from './analyse-for-index';
import type { FileJob, IndexFailure } from './storage-port';

export interface IndexProgress {
  phase: 'walking' | 'indexing' | 'finishing' | 'done';
  filesTotal: number;
  filesDone: number;
  bytesTotal: number;
  bytesDone: number;
  filesFailed: number;
  elapsedMs: number;
}

/** What one index run did, as the CLI prints it and the index run's record keeps it. */
export interface IndexSummary {
  indexRunId: number;
  roots: number;
  filesSeen: number;
  filesUnchanged: number;
  filesChanged: number;
  filesRemoved: number;
  /** Files found no longer on disk in this run whose rows are kept (issue 27). */
  filesGone: number;
  /** Gone files found back on disk unchanged (not read again). */
  filesBack: number;
  filesFailed: number;
  filesInProgress: number;
  /** Files read around damaged lines in salvage mode (labelled in the index). */
  filesSalvaged: number;
  bytesRead: number;
  findingsAdded: number;
  findingsRemoved: number;
  symlinksSkipped: number;
  durationMs: number;
  /** Files read in this run (recognised, not empty), by the format that read them. */
  formats: Record<string, number>;
  /** Zero-byte or blank-only files written in this run: neither read nor failed (issue 37). */
  filesEmpty: number;
  /** Walked `.json` files that do not begin like a transcript (walk-inputs.ts): counted, never read or stored. */
  filesPassedOver: number;
  /** Every file that failed (this run or an earlier one, unchanged since), by root label, in path order. */
  failures: IndexFailure[];
  /** Roots removed (by another process) while this run indexed them; their files were dropped. */
  rootsRemoved: number;
  /** stream-json captures read in this run, by the terminal_reason of their result row (`none` when absent or odd). */
  terminalReasons: Record<string, number>;
}

export function emptySummary(indexRunId: number, roots: number): IndexSummary {
  return {
    indexRunId,
    roots,
    filesSeen: 0,
    filesUnchanged: 0,
    filesChanged: 0,
    filesRemoved: 0,
    filesGone: 0,
    filesBack: 0,
    filesFailed: 0,
    filesInProgress: 0,
    filesSalvaged: 0,
    bytesRead: 0,
    findingsAdded: 0,
    findingsRemoved: 0,
    symlinksSkipped: 0,
    durationMs: 0,
    formats: {},
    filesEmpty: 0,
    filesPassedOver: 0,
    failures: [],
    rootsRemoved: 0,
    terminalReasons: {},
  };
}

/** Counts one file the store wrote (its analysis replaced what the index held for it). */
export function countWrittenFile(summary: IndexSummary, job: FileJob, analysis: IndexAnalysis): void {
  summary.filesChanged++;
  summary.bytesRead += analysis.bytes;
  summary.findingsRemoved += job.previousFindings;
  if (analysis.status === 'ok' && analysis.empty) summary.filesEmpty++;
  else if (analysis.status === 'ok') summary.formats[analysis.format] = (summary.formats[analysis.format] ?? 0) + 1;
  if (analysis.status === 'failed') summary.filesFailed++;
  else if (analysis.status === 'in_progress') summary.filesInProgress++;
  else {
    if (analysis.salvaged?.length) summary.filesSalvaged++;
    if (analysis.format === 'stream-json') {
      const reason = analysis.terminalReason ?? 'none';
      summary.terminalReasons[reason] = (summary.terminalReasons[reason] ?? 0) + 1;
    }
    summary.findingsAdded += analysis.findings.length;
  }
}
