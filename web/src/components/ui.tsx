import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/client';
import { middleTruncate } from '../lib/format';

/** The one banner every error is shown in. */
export function ErrorBanner({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof ApiError ? error.message : 'something went wrong';
  const code = error instanceof ApiError ? error.code : 'error';
  return (
    <div className="banner banner-error" role="alert">
      <strong>Error</strong> {message} <span className="muted">({code})</span>
    </div>
  );
}

export function WarningBanner({ children }: { children: ReactNode }) {
  return (
    <div className="banner banner-warning" role="status">
      {children}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty" data-testid="empty-state">
      <h2>{title}</h2>
      <div>{children}</div>
    </div>
  );
}

export function Skeleton({ height = 120, label = 'Loading' }: { height?: number; label?: string }) {
  return <div className="skeleton" role="status" style={{ height }} aria-busy="true" aria-label={label} />;
}

/**
 * How every section shows one query: its error, if any, then its content once the data is
 * there, and until then a placeholder as tall as the content, so the page does not jump.
 */
export function Loaded<T>({ query, height, children }: { query: { data: T | undefined; error: unknown }; height: number; children: (data: T) => ReactNode }) {
  return (
    <>
      <ErrorBanner error={query.error} />
      {query.data === undefined ? <Skeleton height={height} /> : children(query.data)}
    </>
  );
}

export function StatCard({ label, value, detail, testId }: { label: string; value: string; detail?: ReactNode; testId?: string }) {
  return (
    <div className="stat" data-testid={testId}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      {detail && <div className="stat-detail">{detail}</div>}
    </div>
  );
}

export function Section({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="card">
      <header className="card-header">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

export function NothingIndexed() {
  return (
    <EmptyState title="Nothing indexed yet">
      <p>
        This dashboard reads only folders you add. Go to <Link to="/folders">Folders</Link>, paste a folder such as your Claude Code <code>projects</code>{' '}
        folder, and start an index run. Only metadata (codes, lines, counts, digests) is stored.
      </p>
    </EmptyState>
  );
}

/**
 * A path cut in the middle to `max` characters: its start (the folder) and its end (the file's own
 * name, what tells Claude Code's `<uuid>.jsonl` files apart) stay visible; the whole path is the title.
 */
export function MiddleEllipsis({ text, max = 34, testId }: { text: string; max?: number; testId?: string }) {
  return (
    <span className="middle-ellipsis" title={text} data-testid={testId}>
      {middleTruncate(text, max)}
    </span>
  );
}
