import type { Agent } from '../../shared/agents';
import type { AnyDetector, Detector, Finding, SourceFile, SourceKind, SourceObserver } from './detector';
import { DETECTORS } from './registry';

const CLAUDE_CODE_ONLY: readonly Agent[] = ['claude-code'];

/** Every registered detector of one source, started on one file. */
export interface DetectorRun<S extends SourceKind> {
  /** Hand these to the reader (`scanFile` / `scanCapture`, option `observers`) before it reads the file. */
  readonly observers: SourceObserver<S>[];
  /**
   * Once the file is read: every detector's findings, each finding's lines deduplicated and
   * ascending, sorted by first line then code. A transcript message that a dropped torn row
   * could belong to (salvage mode), or the partial text kept when the user interrupted (`isAbortedMidStream`), is the source of no finding. Call it once.
   */
  detect(file: SourceFile<S>): Finding<S>[];
}

/** Starts the detectors of `source` (the registry's, unless a list is given) for one file: a fresh collector each. */
export function startDetectors<S extends SourceKind>(source: S, detectors: readonly AnyDetector[] = DETECTORS): DetectorRun<S> {
  const active = detectors.filter((d) => d.source === source) as unknown as Detector<S, unknown>[];
  const collectors = active.map((d) => d.collect?.() ?? null);
  return {
    observers: collectors.filter((c) => c !== null),
    detect(file) {
      // Another agent's transcript: only the detectors that say they read its format.
      const agent = 'agent' in file ? (file.agent ?? 'claude-code') : 'claude-code';
      const found = active
        .flatMap((d, i) => ((d.agents ?? CLAUDE_CODE_ONLY).includes(agent) ? d.detect(file, collectors[i]?.facts()) : []))
        .filter((f) => !('damaged' in f.message && (f.message.damaged || f.message.abortedMidStream)));
      for (const f of found) f.sourceLines = [...new Set(f.sourceLines)].sort((a, b) => a - b);
      return found.sort((a, b) => a.sourceLines[0]! - b.sourceLines[0]! || a.code.localeCompare(b.code));
    },
  };
}
