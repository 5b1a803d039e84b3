import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { SESSION_END_TEXT, SESSION_ENDS, type SessionEnd, type SessionEndsResponse } from '../../../shared/session-ends';
import { api } from '../api/client';
import { thinInterval } from '../lib/scale';
import { toQueryString } from '../lib/url-filters';
import { useWidth } from '../lib/use-width';
import { Loaded, Section } from './ui';

/** Fixed colours per ending: the good endings cool, the failures warm, unknown grey (Okabe–Ito). */
const END_COLOR: Record<SessionEnd, string> = {
  tool_call: '#56b4e9',
  text_answer: '#009e73',
  said_nothing: '#e69f00',
  max_tokens: '#cc79a7',
  interrupted: '#0072b2',
  api_error: '#f0e442',
  lost_call: '#d55e00',
  unknown: '#999999',
};

const LABEL: Record<SessionEnd, string> = {
  tool_call: 'tool call',
  text_answer: 'text answer',
  said_nothing: 'said nothing',
  max_tokens: 'truncated (max_tokens)',
  interrupted: 'interrupted',
  api_error: 'API error',
  lost_call: 'lost call',
  unknown: 'unknown (no stop reason)',
};

/** At most this many bars: a year of releases folds into ranges of neighbouring versions. */
const MAX_BARS = 24;

interface EndsPoint {
  key: string;
  sessions: number;
  counts: Record<SessionEnd, number>;
}

/**
 * Folds neighbouring versions into ranges ("2.1.43–2.1.52") of about equal numbers of sessions
 * when there are more than MAX_BARS, so 120 versions stay readable; a version with many sessions
 * stays alone.
 */
export function foldEnds(points: readonly EndsPoint[], max = MAX_BARS): EndsPoint[] {
  if (points.length <= max) return [...points];
  const total = points.reduce((n, p) => n + p.sessions, 0);
  const target = Math.max(1, Math.ceil(total / max));
  const out: Array<EndsPoint & { first: string; last: string; n: number }> = [];
  for (const p of points) {
    const cur = out[out.length - 1];
    if (cur && cur.sessions + p.sessions <= target && out.length > 0) {
      cur.sessions += p.sessions;
      for (const e of SESSION_ENDS) cur.counts[e] += p.counts[e];
      cur.last = p.key;
      cur.n++;
    } else out.push({ key: p.key, sessions: p.sessions, counts: { ...p.counts }, first: p.key, last: p.key, n: 1 });
  }
  // Still too many (many single large versions): merge the smallest neighbours pairwise.
  while (out.length > max) {
    let best = 0;
    for (let i = 1; i < out.length - 1; i++) if (out[i]!.sessions + out[i + 1]!.sessions < out[best]!.sessions + out[best + 1]!.sessions) best = i;
    const [a, b] = [out[best]!, out[best + 1]!];
    a.sessions += b.sessions;
    for (const e of SESSION_ENDS) a.counts[e] += b.counts[e];
    a.last = b.last;
    a.n += b.n;
    out.splice(best + 1, 1);
  }
  return out.map((p) => ({ key: p.n > 1 ? `${p.first}–${p.last}` : p.key, sessions: p.sessions, counts: p.counts }));
}

/**
 * "How sessions end", per Claude Code version: each bar is 100% of the sessions whose last
 * turn was written by that version, split by how that turn ended (GET /api/session-ends).
 */
export function SessionEndsChart({ folder }: { folder?: string }) {
  const query = useQuery({
    queryKey: ['session-ends', 'version', folder ?? null],
    queryFn: () => api.get<SessionEndsResponse>(`/api/session-ends${toQueryString({ dimension: 'version', folder })}`),
  });
  const [ref, width] = useWidth<HTMLDivElement>();
  return (
    <Section title="How sessions end, by Claude Code version">
      <div ref={ref}>
        <Loaded query={query} height={240}>
          {(data) => {
            const folded = foldEnds(data.rows.map((r) => ({ key: r.version ?? 'unknown', sessions: r.sessions, counts: r.ends })));
            const points = folded.map((r) => ({
              ...r,
              ...Object.fromEntries(SESSION_ENDS.map((e) => [e, r.sessions ? r.counts[e] / r.sessions : 0])),
            }));
            const longest = Math.max(...points.map((p) => p.key.length));
            // Many bars: labels stand upright (-90°), each about 16 px across, thinned to fit the width.
            const upright = points.length > 8;
            const interval = thinInterval(points.length, Math.max(width - 70, 100), upright ? 18 : longest * 7 + 8);
            if (points.length === 0) return <p className="muted small">No whole session transcripts indexed yet.</p>;
            return (
              // Not a `.chart` of finding codes: its legend names endings, not codes.
              <div className="ends-chart" data-testid="session-ends-chart" data-points={points.length}>
                {folded.length < data.rows.length && (
                  <p className="muted small">
                    {data.rows.length} versions folded into {folded.length} ranges of neighbouring versions with similar numbers of sessions.
                  </p>
                )}
                <ResponsiveContainer width="100%" height={260} initialDimension={{ width: 800, height: 260 }}>
                  <BarChart data={points} margin={{ top: 12, right: 8, bottom: 4, left: 0 }}>
                    <CartesianGrid stroke="var(--grid)" vertical={false} />
                    <XAxis
                      dataKey="key"
                      stroke="var(--muted)"
                      fontSize={12}
                      interval={interval}
                      angle={upright ? -90 : 0}
                      textAnchor={upright ? 'end' : 'middle'}
                      height={upright ? longest * 7 + 12 : 30}
                    />
                    <YAxis stroke="var(--muted)" fontSize={12} width={58} domain={[0, 1]} tickFormatter={(v: number) => `${Math.round(v * 100)}%`} />
                    <Tooltip
                      contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' }}
                      formatter={(value, name, item) => {
                        const end = name as SessionEnd;
                        const p = item.payload as { sessions: number; counts: Record<SessionEnd, number> };
                        return [`${Math.round(Number(value) * 1000) / 10}% (${p.counts[end]} of ${p.sessions})`, LABEL[end] ?? end];
                      }}
                    />
                    <Legend
                      formatter={(name) => <span style={{ color: 'var(--text)' }}>{LABEL[name as SessionEnd] ?? name}</span>}
                      wrapperStyle={{ fontSize: 12 }}
                    />
                    {SESSION_ENDS.map((e) => (
                      <Bar key={e} dataKey={e} stackId="ends" fill={END_COLOR[e]} isAnimationActive={false} />
                    ))}
                  </BarChart>
                </ResponsiveContainer>
                <details className="small muted">
                  <summary>What each ending means</summary>
                  <ul>
                    {SESSION_ENDS.map((e) => (
                      <li key={e}>{SESSION_END_TEXT[e]}</li>
                    ))}
                  </ul>
                </details>
              </div>
            );
          }}
        </Loaded>
      </div>
    </Section>
  );
}
