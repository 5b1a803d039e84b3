// Preloaded into a measured process (`node --import report-usage.mjs …`): on exit, writes its
// peak resident set size (MB) and the CPU time it used (user + system seconds, worker threads
// included: they share the process) as JSON to the file named by BENCH_USAGE_FILE.
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_USAGE_FILE;
if (target) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(target, JSON.stringify({ rss_mb: u.maxRSS / 1024, cpu_s: (u.userCPUTime + u.systemCPUTime) / 1e6 }));
  });
}
