import { analyseForIndex, type IndexAnalysis } from './analyse-for-index';

/** Worker-thread entry for the index: a batch of files in (small files travel together), their payload-free analyses out. */
export default function analyseInWorker(task: string[] | { paths: string[]; salvage: boolean[] }): IndexAnalysis[] {
  const paths = Array.isArray(task) ? task : task.paths;
  const salvage = Array.isArray(task) ? [] : task.salvage;
  return paths.map((path, i) => analyseForIndex(path, { salvage: salvage[i] === true }));
}
