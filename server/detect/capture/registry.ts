import type { CaptureDetector } from './capture-detector';
import { inputMismatch } from './input-mismatch';
import { malformedToolUseExhausted } from './malformed-tool-use-exhausted';
import { toolUseStopWithoutBlock } from './tool-use-stop-without-block';
import { unparseableToolInput } from './unparseable-tool-input';
import { zeroDeltaToolUse } from './zero-delta-tool-use';

/** Every detector run on stream captures. */
export const CAPTURE_DETECTORS: readonly CaptureDetector[] = [
  zeroDeltaToolUse,
  toolUseStopWithoutBlock,
  unparseableToolInput,
  inputMismatch,
  malformedToolUseExhausted,
];
