import type { DetectedFinding, Detector } from './detector';
import { nextMessageStart } from './linked-message';

/**
 * A call that never got a result anywhere in its file. The file's last message is left out
 * (the session may have been killed mid-call), and so are calls the user interrupted or
 * rejected; files still being written are never analysed.
 */
export const orphanToolUse: Detector = {
  code: 'orphan_tool_use',
  detect(file) {
    const answered = new Set(file.toolResults.map((r) => r.toolUseId));
    const last = file.messages.length - 1;
    const findings: DetectedFinding[] = [];
    for (const m of file.messages) {
      if (m.index === last || m.synthetic) continue;
      const next = nextMessageStart(file, m);
      for (const call of m.toolUses) {
        if (call.id === '' || answered.has(call.id)) continue;
        if (file.interrupts.some((line) => line > call.line && line < next)) continue;
        findings.push({ code: 'orphan_tool_use', message: m, sourceLines: [call.line] });
      }
    }
    return findings;
  },
};
