import { analyseFile, type FileAnalysis } from './analyse-file';

/** Worker-thread entry for the index: one file in, its payload-free analysis out. */
export default function analyseInWorker(path: string): FileAnalysis {
  return analyseFile(path, { forIndex: true });
}
