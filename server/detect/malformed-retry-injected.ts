import type { Detector, Finding } from './detector';
import { messageBefore, shapeOf } from './linked-message';

/**
 * The harness noticed a malformed call and injected its retry nudge. Each nudge is linked to
 * the message it follows and labelled with that message's shape, so the one marker never
 * stands for two failures.
 */
export const malformedRetryInjected: Detector<'transcript'> = {
  code: 'malformed_retry_injected',
  source: 'transcript',
  detect(file) {
    const findings: Finding<'transcript'>[] = [];
    for (const nudge of file.nudges) {
      const message = messageBefore(file, nudge.line, nudge.sidechain) ?? file.messages.find((m) => !m.synthetic);
      if (!message) continue; // a nudge in a file with no model message cannot be dated or linked
      findings.push({
        code: 'malformed_retry_injected',
        message,
        sourceLines: [nudge.line],
        details: { shape: shapeOf(messageBefore(file, nudge.line, nudge.sidechain)), wording: nudge.wording },
      });
    }
    return findings;
  },
};
