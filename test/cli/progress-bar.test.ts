import { describe, expect, it } from 'vitest';
import { formatDuration, formatProgress } from '../../server/cli/progress-bar';

describe('index progress line (stderr, terminals only)', () => {
  it('shows the bar, files and MB done, the rate, the ETA and failures', () => {
    const line = formatProgress({ phase: 'indexing', filesTotal: 200, filesDone: 50, bytesTotal: 300e6, bytesDone: 75e6, filesFailed: 2, elapsedMs: 5000 }, 20);
    expect(line).toBe('[#####...............] 50/200 files, 75.0/300.0 MB, 15.0 MB/s, ETA 0:15, 2 failed');
  });
  it('says nothing it cannot know yet', () => {
    expect(formatProgress({ phase: 'walking', filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0, filesFailed: 0, elapsedMs: 0 }, 4)).toBe(
      '[....] 0/0 files, 0.0/0.0 MB, 0.0 MB/s, ETA --:--',
    );
    expect(formatDuration(125)).toBe('2:05');
  });
});
