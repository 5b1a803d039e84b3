import { analyseFile, type FileAnalysis } from './analyse-file';

/** Worker-thread entry for the index: a batch of files in (small files travel together), their payload-free analyses out. */
export default function analyseInWorker(paths: string[]): FileAnalysis[] {
  return paths.map((path) => analyseFile(path, { forIndex: true }));
}
