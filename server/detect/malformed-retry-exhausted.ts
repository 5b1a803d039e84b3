import type { Detector, Finding } from './detector';
import { messageBefore, shapeOf } from './linked-message';

/** The retry failed too: the harness wrote its synthetic "could not be parsed (retry also failed)" row. */
export const malformedRetryExhausted: Detector<'transcript'> = {
  code: 'malformed_retry_exhausted',
  source: 'transcript',
  detect(file) {
    const findings: Finding<'transcript'>[] = [];
    for (const marker of file.messages.filter((m) => m.synthetic && m.retryExhausted)) {
      const linked = messageBefore(file, marker.lines[0]!, marker.sidechain);
      findings.push({ code: 'malformed_retry_exhausted', message: linked ?? marker, sourceLines: [...marker.lines], details: { shape: shapeOf(linked) } });
    }
    return findings;
  },
};
