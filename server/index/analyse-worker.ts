import { analyseForIndex } from './analyse-for-index';
import { type EncodedAnalyses, encodeAnalyses } from './analysis-batch';

/** Worker-thread entry for the index: a batch of files in (small files travel together), their payload-free analyses out, as bytes (analysis-batch.ts). */
export default function analyseInWorker(task: string[] | { paths: string[]; salvage: boolean[] }): EncodedAnalyses {
  const paths = Array.isArray(task) ? task : task.paths;
  const salvage = Array.isArray(task) ? [] : task.salvage;
  return encodeAnalyses(paths.map((path, i) => analyseForIndex(path, { salvage: salvage[i] === true })));
}
