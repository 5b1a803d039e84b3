import type { IndexProgress } from '../index/index-folders';

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** One line: bar, files and MB done, rate and ETA. */
export function formatProgress(p: IndexProgress, width = 24): string {
  const fraction = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.filesTotal > 0 ? p.filesDone / p.filesTotal : 0;
  const filled = Math.round(fraction * width);
  const mbDone = p.bytesDone / 1e6;
  const seconds = p.elapsedMs / 1000;
  const rate = seconds > 0 ? mbDone / seconds : 0;
  const eta = rate > 0 ? (p.bytesTotal / 1e6 - mbDone) / rate : NaN;
  return (
    `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.filesDone}/${p.filesTotal} files, ` +
    `${mbDone.toFixed(1)}/${(p.bytesTotal / 1e6).toFixed(1)} MB, ${rate.toFixed(1)} MB/s, ETA ${formatDuration(eta)}` +
    (p.filesFailed > 0 ? `, ${p.filesFailed} failed` : '')
  );
}

/** Redraws the progress line on stderr when stderr is a terminal; silent otherwise. */
export function stderrProgress(): ((p: IndexProgress) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (p.phase === 'indexing' && now - last < 100 && p.filesDone < p.filesTotal) return;
    last = now;
    process.stderr.write(`\r\x1b[2K${formatProgress(p)}`);
    if (p.phase === 'done') process.stderr.write('\n');
  };
}
