import type { Detector } from './detector';
import { emptyToolInputWithErrorResult } from './empty-tool-input-with-error-result';
import { missingToolUseBlock } from './missing-tool-use-block';

/** Every detector the scanner runs, in report order. */
export const DETECTORS: readonly Detector[] = [missingToolUseBlock, emptyToolInputWithErrorResult];
