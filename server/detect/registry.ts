import { apiToolPairingError } from './api-tool-pairing-error';
import type { Detector } from './detector';
import { emptyToolInputWithErrorResult } from './empty-tool-input-with-error-result';
import { malformedRetryExhausted } from './malformed-retry-exhausted';
import { malformedRetryInjected } from './malformed-retry-injected';
import { missingToolUseBlock } from './missing-tool-use-block';
import { orphanToolUse } from './orphan-tool-use';
import { repeatedEmptyToolCall } from './repeated-empty-tool-call';
import { textLeakedToolCall } from './text-leaked-tool-call';
import { toolResultInternalError } from './tool-result-internal-error';
import { truncatedToolUse } from './truncated-tool-use';
import { unparseableToolInputTranscript } from './unparseable-tool-input';

/** Every detector the scanner runs, in report order (the order of FINDING_CODES). */
export const DETECTORS: readonly Detector[] = [
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
  unparseableToolInputTranscript,
];
