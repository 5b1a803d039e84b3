import { apiToolPairingError } from './api-tool-pairing-error';
import { inputMismatch } from './capture/input-mismatch-capture';
import { malformedToolUseExhausted } from './capture/malformed-tool-use-exhausted-capture';
import { toolUseStopWithoutBlock } from './capture/tool-use-stop-without-block-capture';
import { unparseableToolInputCapture } from './capture/unparseable-tool-input-capture';
import { zeroDeltaToolUse } from './capture/zero-delta-tool-use-capture';
import type { AnyDetector } from './detector';
import { emptyToolInputWithErrorResult } from './empty-tool-input-with-error-result';
import { malformedRetryExhausted } from './malformed-retry-exhausted';
import { malformedRetryInjected } from './malformed-retry-injected';
import { missingToolUseBlock } from './missing-tool-use-block';
import { orphanToolUse } from './orphan-tool-use';
import { repeatedEmptyToolCall } from './repeated-empty-tool-call';
import { textLeakedToolCall } from './text-leaked-tool-call';
import { thinkingCutAtMaxTokens } from './thinking-cut-at-max-tokens';
import { toolResultInternalError } from './tool-result-internal-error';
import { truncatedToolUse } from './truncated-tool-use';
import { unparseableToolInputTranscript } from './unparseable-tool-input';

/**
 * Every detector, transcripts and stream captures alike, in the order of FINDING_CODES (a code
 * found in both kinds of file has one detector per kind). The pipeline runs those of a file's
 * kind; the order of findings does not depend on this list's.
 */
export const DETECTORS: readonly AnyDetector[] = [
  missingToolUseBlock,
  emptyToolInputWithErrorResult,
  textLeakedToolCall,
  malformedRetryInjected,
  malformedRetryExhausted,
  truncatedToolUse,
  orphanToolUse,
  toolResultInternalError,
  apiToolPairingError,
  repeatedEmptyToolCall,
  zeroDeltaToolUse,
  toolUseStopWithoutBlock,
  unparseableToolInputTranscript,
  unparseableToolInputCapture,
  inputMismatch,
  malformedToolUseExhausted,
  thinkingCutAtMaxTokens,
];
