import { PAIRING_ERRORS } from '../scan/harness-markers';
import type { Detector } from './detector';
import { messageBefore } from './linked-message';

/** The API refused the conversation: a 400 about tool_use/tool_result pairing or input shape. */
export const apiToolPairingError: Detector = {
  code: 'api_tool_pairing_error',
  detect(file) {
    return file.messages
      .filter((m) => m.synthetic && m.pairingError !== null)
      .map((m) => ({
        code: 'api_tool_pairing_error' as const,
        message: messageBefore(file, m.lines[0]!, m.sidechain) ?? m,
        sourceLines: [...m.lines],
        details: { kind: PAIRING_ERRORS[m.pairingError!]![0] },
      }));
  },
};
