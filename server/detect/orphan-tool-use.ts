import { callsOf, MessageTimeline, resultsOf } from './call-outcomes';
import type { Detector, Finding } from './detector';

/**
 * A call that never got a result anywhere in its file (paired by id, in either order). Left
 * out: calls the user interrupted or rejected; calls split from their result by auto-compaction
 * (a compact_boundary before the next model message, with or without progress rows between);
 * calls after which the file holds no other model message (the file's last message, or nothing
 * but progress, attachment, system rows or siblings' results: copied or ended while the call
 * ran); files still being written are never analysed. The excluded kinds are counted as
 * diagnostics (call-diagnostics.ts), not findings.
 */
export const orphanToolUse: Detector<'transcript'> = {
  code: 'orphan_tool_use',
  source: 'transcript',
  agents: ['claude-code', 'codex'],
  detect(file) {
    const answered = resultsOf(file);
    let timeline: MessageTimeline | null = null;
    const findings: Finding<'transcript'>[] = [];
    for (const { message, call } of callsOf(file)) {
      if (call.id === '' || answered.has(call.id)) continue;
      timeline ??= new MessageTimeline(file);
      if (timeline.fateOf(message, call) === 'orphan') findings.push({ code: 'orphan_tool_use', message, sourceLines: [call.line] });
    }
    return findings;
  },
};
