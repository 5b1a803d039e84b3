// Preloaded into a measured process: on exit, writes its peak resident set size (MB) to
// the file named by BENCH_RSS_FILE. Worker threads share the process, so they are included.
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_RSS_FILE;
if (target) process.on('exit', () => writeFileSync(target, String(process.resourceUsage().maxRSS / 1024)));
