import type { Interval } from '../../../shared/api-schemas';
import { formatPerMille } from '../../../shared/format/per-mille';

/** Small pure formatters: every number on the page goes through one of these. */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatCount(n: number): string {
  return integer.format(n);
}

export { formatP } from '../../../shared/format/p-value';
export { formatPerMille } from '../../../shared/format/per-mille';

export function formatRate(interval: Interval | null): string {
  return interval === null ? '–' : formatPerMille(interval.rate);
}

/** "4.1‰ (95% CI 1.2–8.0‰)" or "–" when there is no denominator. */
export function formatRateWithInterval(interval: Interval | null): string {
  if (interval === null) return '–';
  return `${formatPerMille(interval.rate)} (95% CI ${formatPerMille(interval.low).replace('‰', '')}–${formatPerMille(interval.high)})`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1e3) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const shortDayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "May 29, 2026" for a UTC day; "unknown" for null. */
export function formatDay(day: string | null): string {
  if (day === null) return 'unknown';
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) ? day : dayFormat.format(ms);
}

export function formatShortDay(day: string): string {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) ? day : shortDayFormat.format(ms);
}

export function formatTimestamp(iso: string | null): string {
  if (iso === null) return 'never';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/** Readable names for finding codes. */
export function codeLabel(code: string): string {
  return code.replaceAll('_', ' ');
}

export function shortDigest(sha256: string): string {
  return sha256.slice(0, 12);
}

/** `text` cut to `max` characters in the middle (shared with the terminal's lines). */
export { middleTruncate } from '../../../shared/middle-truncate';
