import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type HealthResponse, type IndexRunState, ReadOnlyReason as ReadOnlyReasonSchema } from '../../shared/api-schemas';
import { READ_ONLY_REASONS, type ReadOnlyReason } from '../../shared/read-only';
import { ApiError } from '../../web/src/api/client';
import { IndexRunProgress } from '../../web/src/components/IndexRunProgress';
import { ReadOnlyBanner } from '../../web/src/components/ReadOnlyBanner';
import { ErrorBanner, StatCard } from '../../web/src/components/ui';

const state = (over: Partial<IndexRunState>): IndexRunState => ({
  state: 'running',
  index_run_id: null,
  folder_id: null,
  phase: 'indexing',
  files_done: 25,
  files_total: 100,
  bytes_done: 50_000_000,
  bytes_total: 200_000_000,
  files_failed: 2,
  bytes_per_second: 10_000_000,
  eta_seconds: 15,
  started_at: null,
  finished_at: null,
  findings_added: 0,
  findings_removed: 0,
  ...over,
});

describe('components', () => {
  it('IndexRunProgress shows bytes done as the bar, files, rate, ETA and failures', () => {
    const html = renderToStaticMarkup(<IndexRunProgress state={state({})} />);
    expect(html).toContain('aria-valuenow="25"');
    expect(html).toContain('width:25%');
    expect(html).toContain('25/100 files');
    expect(html).toContain('10.0 MB/s');
    expect(html).toContain('ETA 15 s');
    expect(html).toContain('2 failed');
  });

  it('IndexRunProgress shows nothing when no index run ever ran, and a full bar when done', () => {
    expect(renderToStaticMarkup(<IndexRunProgress state={state({ state: 'idle' })} />)).toBe('');
    const done = renderToStaticMarkup(<IndexRunProgress state={state({ state: 'done', files_done: 100, bytes_done: 200_000_000 })} />);
    expect(done).toContain('aria-valuenow="100"');
    expect(done).toContain('Last index run finished');
    expect(done).not.toContain('ETA');
  });

  it('ErrorBanner shows the API error message and code, and hides other errors behind a generic one', () => {
    expect(renderToStaticMarkup(<ErrorBanner error={new ApiError(409, 'index_running', 'an index run is already running')} />)).toContain(
      'an index run is already running',
    );
    const other = renderToStaticMarkup(<ErrorBanner error={new Error('/home/secret/path exploded')} />);
    expect(other).toContain('something went wrong');
    expect(other).not.toContain('secret');
    expect(renderToStaticMarkup(<ErrorBanner error={null} />)).toBe('');
  });

  it('StatCard renders its label, value and detail', () => {
    const html = renderToStaticMarkup(<StatCard label="Tool-use turns" value="32,173" detail="since May 1" testId="x" />);
    expect(html).toContain('data-testid="x"');
    expect(html).toContain('32,173');
    expect(html).toContain('since May 1');
  });
});

describe('the read-only banner', () => {
  const health = (over: Partial<HealthResponse>): HealthResponse => ({
    status: 'ok',
    tool_version: '9.9.9',
    detector_definitions_version: 1,
    demo: false,
    read_only: false,
    read_only_reason: null,
    index_id: null,
    ...over,
  });

  it('is shown only on a read-only index, with why', () => {
    expect(renderToStaticMarkup(<ReadOnlyBanner health={health({})} />)).toBe('');
    expect(renderToStaticMarkup(<ReadOnlyBanner health={undefined} />)).toBe('');
    const html = renderToStaticMarkup(<ReadOnlyBanner health={health({ read_only: true, read_only_reason: 'read_only_file_system' })} />);
    expect(html).toContain('role="status"');
    expect(html.replace(/<[^>]+>/g, '')).toBe('Read-only index — index runs and folder changes are off (its file system is mounted read-only).');
  });

  it('names every reason the API can send, in words', () => {
    const schemaReasons = (ReadOnlyReasonSchema as unknown as { anyOf: Array<{ const: string }> }).anyOf.map((s) => s.const);
    expect(schemaReasons.sort()).toEqual(Object.keys(READ_ONLY_REASONS).sort());
    for (const reason of schemaReasons) {
      const html = renderToStaticMarkup(<ReadOnlyBanner health={health({ read_only: true, read_only_reason: reason as ReadOnlyReason })} />);
      expect(html).toContain(READ_ONLY_REASONS[reason as ReadOnlyReason].replace("'", '&#x27;'));
    }
  });
});
