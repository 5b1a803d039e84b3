import type { Agent } from '../../shared/agents';
import type { FindingCode } from '../../shared/finding-codes';
import type { CaptureFile, CaptureMessage } from '../scan/capture-model';
import type { CaptureObserver, TranscriptObserver } from '../scan/observers';
import type { AssistantMessage, TranscriptFile } from '../scan/transcript-model';

/** What a detector reads, per kind of source file: the model, its messages, and the observer hooks. */
interface Sources {
  /** A Claude Code transcript (`.jsonl`): scan/transcript-model.ts, hooks TranscriptObserver. */
  transcript: { file: TranscriptFile; message: AssistantMessage; observer: TranscriptObserver };
  /** A stream capture (stream-json NDJSON or a raw SSE log): scan/capture-model.ts, hooks CaptureObserver. */
  capture: { file: CaptureFile; message: CaptureMessage; observer: CaptureObserver };
}

export type SourceKind = keyof Sources;
export type SourceFile<S extends SourceKind> = Sources[S]['file'];
export type SourceMessage<S extends SourceKind> = Sources[S]['message'];

/** One failure a detector saw, still in terms of the in-memory model. */
export interface Finding<S extends SourceKind = SourceKind> {
  code: FindingCode;
  /** The message the finding is about; its metadata (day, version, model, block types) describes the finding. */
  message: SourceMessage<S>;
  /** Every line that is evidence for the finding. The pipeline deduplicates and sorts them; their bytes are digested. */
  sourceLines: number[];
  /** Detector-specific metadata: codes, counts and fixed list entries only, never text from the file. */
  details?: Record<string, string | number | boolean>;
}

/** A transcript finding (the CLI hook and the tests name it so). */
export type DetectedFinding = Finding<'transcript'>;

/**
 * What a detector gathers while one file is read: the hooks the builder calls (see
 * scan/observers.ts), and `facts()`, called once after the last row, which hands the
 * detector its own facts. A fresh collector is made for every file.
 */
export type Collector<S extends SourceKind, F> = Sources[S]['observer'] & { facts(): F };

interface DetectorCore<S extends SourceKind, F> {
  code: FindingCode;
  /** Which files it reads: transcripts or stream captures. */
  source: S;
  /**
   * The agents whose transcripts it reads (their adapters give its rule the facts it needs, as
   * clearly as Claude Code's rows do); absent: Claude Code only. A capture is always Claude Code's.
   */
  agents?: readonly Agent[];
  /**
   * The rule: a pure function of the file's model and the detector's own facts (no I/O, no
   * SQL, no clock, nothing from the file's text in its output). Findings in any order.
   * `facts` is what its collector gathered (left out for a detector without one).
   */
  detect(file: SourceFile<S>, ...facts: undefined extends F ? [facts?: F] : [facts: F]): Finding<S>[];
}

/**
 * A detector: one file holding its code, the source it reads, what it needs computed while
 * rows are read (`collect`, only when the shared model lacks it) and its rule (`detect`).
 * `F` is the type of its own facts; a detector that needs none leaves it out and has no
 * `collect`. Register it in `registry.ts`; fixtures in `fixtures/detectors/<code>/`.
 */
export type Detector<S extends SourceKind, F = undefined> = DetectorCore<S, F> &
  (undefined extends F ? { collect?: () => Collector<S, F> } : { collect: () => Collector<S, F> });

/** Any registered detector, whatever its source and facts. */
export type AnyDetector = Detector<'transcript', unknown> | Detector<'capture', unknown>;

export type SourceObserver<S extends SourceKind> = Sources[S]['observer'];
