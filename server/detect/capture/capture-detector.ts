import type { FindingCode } from '../../../shared/finding-codes';
import type { CaptureFile, CaptureMessage } from '../../scan/capture-model';

export interface CaptureFinding {
  code: FindingCode;
  message: CaptureMessage;
  sourceLines: number[];
  details?: Record<string, string | number | boolean>;
}

/** A detector over one stream capture: pure, like the transcript detectors. */
export interface CaptureDetector {
  code: FindingCode;
  detect(file: CaptureFile): CaptureFinding[];
}
