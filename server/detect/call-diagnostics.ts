import { emptyVersionDiagnostics, type TranscriptFile, type VersionDiagnostics } from '../scan/transcript-model';
import { callsOf, MessageTimeline, resultsOf } from './call-outcomes';

/**
 * Counts that are not findings, per Claude Code version of the calling message: calls split
 * from their result by compaction, calls still open at the end of the file, and calls with
 * non-empty input refused by validation (by error kind: the model's own mistakes, not lost
 * arguments; calls cut at max_tokens are left out, they are truncated_tool_use). Returns new
 * diagnostics objects; the transcript model is not changed.
 */
export function withCallDiagnostics(file: TranscriptFile): VersionDiagnostics[] {
  const byVersion = new Map(file.diagnostics.map((d) => [d.version ?? '', { ...d, rejectedToolInput: { ...d.rejectedToolInput } }]));
  const of = (version: string | null): VersionDiagnostics => {
    let d = byVersion.get(version ?? '');
    if (!d) {
      d = emptyVersionDiagnostics(version);
      byVersion.set(version ?? '', d);
    }
    return d;
  };
  const results = resultsOf(file);
  let timeline: MessageTimeline | null = null;
  for (const { message, call } of callsOf(file)) {
    if (message.damaged) continue;
    const result = results.of(call);
    if (result === null) {
      if (call.id === '') continue;
      timeline ??= new MessageTimeline(file);
      const fate = timeline.fateOf(message, call);
      if (fate === 'compaction_split') of(message.version).compactionSplits++;
      else if (fate === 'open_at_end') of(message.version).callsOpenAtEnd++;
    } else if (
      result.isError &&
      result.validation &&
      !call.emptyInput &&
      call.unparsed === null &&
      result.errorKind !== null &&
      message.stopReason !== 'max_tokens'
    ) {
      // A call cut at max_tokens lost its late keys (truncated_tool_use): not the model's mistake.
      const d = of(message.version);
      d.rejectedToolInput[result.errorKind] = (d.rejectedToolInput[result.errorKind] ?? 0) + 1;
    }
  }
  return [...byVersion.values()];
}
