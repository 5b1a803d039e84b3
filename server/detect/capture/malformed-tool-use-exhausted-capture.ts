import type { Detector } from '../detector';

/**
 * stream-json: the run's `result` row says terminal_reason `malformed_tool_use_exhausted` (Claude
 * Code 2.1.204+): the turn died after the harness's one retry of a malformed tool call. Linked to
 * the run's last model message (the one whose call could not be parsed), and to its session.
 */
export const malformedToolUseExhausted: Detector<'capture'> = {
  code: 'malformed_tool_use_exhausted',
  source: 'capture',
  detect(file) {
    if (file.terminalReason !== 'malformed_tool_use_exhausted' || file.resultLine === null) return [];
    const last = file.messages[file.messages.length - 1];
    const message = last ?? { index: 0, messageId: '', startLine: file.resultLine, model: null, blocks: [], stopReason: null, stopLine: null };
    return [{ code: 'malformed_tool_use_exhausted', message, sourceLines: [file.resultLine] }];
  },
};
