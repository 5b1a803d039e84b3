import type { FindingCode } from '../../shared/finding-codes';
import type { AssistantMessage, TranscriptFile } from '../scan/transcript-model';

/** One failure a detector saw, still in terms of the in-memory model. */
export interface DetectedFinding {
  code: FindingCode;
  /** The message the finding is about; its metadata (day, version, model, block types) describes the finding. */
  message: AssistantMessage;
  /** Every line that is evidence for the finding, ascending. Their bytes are digested. */
  sourceLines: number[];
  /** Detector-specific metadata: codes, counts and fixed list entries only, never text from the transcript. */
  details?: Record<string, string | number | boolean>;
}

/**
 * A detector is a pure function over one file's transcript model: no I/O, no SQL, no
 * clock. It returns findings in any order; the pipeline sorts them. Register a new one in
 * `registry.ts` and give it fixtures under `fixtures/detectors/<code>/`.
 */
export interface Detector {
  code: FindingCode;
  detect(file: TranscriptFile): DetectedFinding[];
}
