import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { SESSION_END_TEXT, SESSION_ENDS, type SessionEnd, type SessionEndsResponse } from '../../../shared/session-ends';
import { api } from '../api/client';
import { toQueryString } from '../lib/url-filters';
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

/**
 * "How sessions end", per Claude Code version: each bar is 100% of the sessions whose last
 * turn was written by that version, split by how that turn ended (GET /api/session-ends).
 */
export function SessionEndsChart({ root }: { root?: string }) {
  const query = useQuery({
    queryKey: ['session-ends', 'version', root ?? null],
    queryFn: () => api.get<SessionEndsResponse>(`/api/session-ends${toQueryString({ dimension: 'version', root })}`),
  });
  return (
    <Section title="How sessions end, by Claude Code version">
      <Loaded query={query} height={240}>
        {(data) => {
          const points = data.rows.map((r) => ({
            key: r.key ?? 'unknown',
            sessions: r.sessions,
            ...Object.fromEntries(SESSION_ENDS.map((e) => [e, r.sessions ? r.ends[e] / r.sessions : 0])),
            counts: r.ends,
          }));
          if (points.length === 0) return <p className="muted small">No whole session transcripts indexed yet.</p>;
          return (
            <div className="chart" data-testid="session-ends-chart" data-points={points.length}>
              <ResponsiveContainer width="100%" height={260} initialDimension={{ width: 800, height: 260 }}>
                <BarChart data={points} margin={{ top: 12, right: 8, bottom: 4, left: 0 }}>
                  <CartesianGrid stroke="var(--grid)" vertical={false} />
                  <XAxis
                    dataKey="key"
                    stroke="var(--muted)"
                    fontSize={12}
                    interval={0}
                    angle={points.length > 8 ? -35 : 0}
                    textAnchor={points.length > 8 ? 'end' : 'middle'}
                    height={points.length > 8 ? 60 : 30}
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
    </Section>
  );
}
