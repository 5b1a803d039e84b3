import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TurnEndDimension, TurnEndsResponse } from '../../../shared/api-schemas';
import { TURN_END_TEXT, TURN_ENDS, type TurnEnd } from '../../../shared/turn-ends';
import { api } from '../api/client';
import { Loaded, Section } from '../components/ui';
import { ViewAsData } from '../components/ViewAsData';
import { agentVersion } from '../lib/agents';
import { toQueryString } from '../lib/url-filters';
import { useUrlParams } from '../lib/use-url-params';
import { thinInterval } from './scale';
import { useWidth } from './use-width';

/** Fixed colours per ending: the good endings cool, the cuts and failures warm, unknown grey (Okabe–Ito and shades). */
const END_COLOR: Record<TurnEnd, string> = {
  tool_call: '#56b4e9',
  text_answer: '#009e73',
  said_nothing: '#e69f00',
  cut_while_thinking: '#cc79a7',
  cut_in_text: '#e0a8c8',
  cut_in_call: '#8e3f6f',
  interrupted: '#0072b2',
  api_error: '#f0e442',
  lost_call: '#d55e00',
  unknown: '#999999',
};

const LABEL: Record<TurnEnd, string> = {
  tool_call: 'tool call',
  text_answer: 'text answer',
  said_nothing: 'said nothing',
  cut_while_thinking: 'cut while thinking',
  cut_in_text: 'cut in text',
  cut_in_call: 'cut in a call',
  interrupted: 'interrupted',
  api_error: 'API error',
  lost_call: 'lost call',
  unknown: 'unknown (no stop reason)',
};

/** At most this many bars: a year of releases folds into ranges of neighbouring keys. */
const MAX_BARS = 24;

interface EndsPoint {
  key: string;
  turns: number;
  counts: Record<TurnEnd, number>;
}

/** Folds neighbouring keys into ranges of about equal numbers of turn ends when there are more than `max`. */
export function foldTurnEnds(points: readonly EndsPoint[], max = MAX_BARS): EndsPoint[] {
  if (points.length <= max) return [...points];
  const total = points.reduce((n, p) => n + p.turns, 0);
  const target = Math.max(1, Math.ceil(total / max));
  const out: Array<EndsPoint & { first: string; last: string; n: number }> = [];
  const add = (into: EndsPoint, p: EndsPoint) => {
    into.turns += p.turns;
    for (const e of TURN_ENDS) into.counts[e] += p.counts[e];
  };
  for (const p of points) {
    const cur = out[out.length - 1];
    if (cur && cur.turns + p.turns <= target) {
      add(cur, p);
      cur.last = p.key;
      cur.n++;
    } else out.push({ key: p.key, turns: p.turns, counts: { ...p.counts }, first: p.key, last: p.key, n: 1 });
  }
  while (out.length > max) {
    let best = 0;
    for (let i = 1; i < out.length - 1; i++) if (out[i]!.turns + out[i + 1]!.turns < out[best]!.turns + out[best + 1]!.turns) best = i;
    const [a, b] = [out[best]!, out[best + 1]!];
    add(a, b);
    a.last = b.last;
    a.n += b.n;
    out.splice(best + 1, 1);
  }
  return out.map((p) => ({ key: p.n > 1 ? `${p.first}–${p.last}` : p.key, turns: p.turns, counts: p.counts }));
}

const DIMENSIONS: TurnEndDimension[] = ['version', 'effort', 'model', 'day'];

/**
 * "How turns end": each bar is 100% of the turn ends (every point where control went back to the
 * user) whose last message was written by that version (or at that effort, by that model, on that
 * day), split by how the turn ended (GET /api/turn-ends). `ends=last` keeps each session's last turn
 * only (what "How sessions end" drew); `ends_by` picks the dimension. Both live in the URL.
 */
export function TurnEndsChart({ folder, effort, sidechain, agent }: { folder?: string; effort?: string; sidechain?: string; agent?: string }) {
  const [search, setParams] = useUrlParams();
  const dimension = DIMENSIONS.find((d) => d === search.get('ends_by')) ?? 'version';
  const turns = search.get('ends') === 'last' ? 'last' : 'all';
  const qs = toQueryString({ dimension, turns, folder, effort, sidechain, agent });
  const query = useQuery({ queryKey: ['turn-ends', qs], queryFn: () => api.get<TurnEndsResponse>(`/api/turn-ends${qs}`) });
  const [ref, width] = useWidth<HTMLDivElement>();
  const what = turns === 'last' ? "each session's last turn" : 'every turn';
  return (
    <Section title={`How turns end, by ${dimension === 'version' ? 'agent version' : dimension}`}>
      <div className="filters" role="group" aria-label="Turn ends">
        <label>
          Turns{' '}
          <select value={turns} onChange={(e) => setParams({ ends: e.target.value === 'last' ? 'last' : undefined })} data-testid="turn-ends-turns">
            <option value="all">every turn</option>
            <option value="last">each session's last turn</option>
          </select>
        </label>
        <label>
          By{' '}
          <select
            value={dimension}
            onChange={(e) => setParams({ ends_by: e.target.value === 'version' ? undefined : e.target.value })}
            data-testid="turn-ends-by"
          >
            {DIMENSIONS.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div ref={ref}>
        <Loaded query={query} height={240}>
          {(data) => {
            // Versions are per agent: with several agents' versions each bar names its agent (`codex 0.146.0`).
            const mixed = dimension === 'version' && new Set(data.rows.map((r) => r.agent)).size > 1;
            const keyOf = (r: (typeof data.rows)[number]) =>
              dimension === 'version' ? agentVersion(r.agent ?? null, r.version ?? null, mixed) : ((r[dimension] as string | null | undefined) ?? 'unknown');
            const folded = foldTurnEnds(data.rows.map((r) => ({ key: keyOf(r), turns: r.turn_ends, counts: r.ends })));
            const points = folded.map((r) => ({
              ...r,
              ...Object.fromEntries(TURN_ENDS.map((e) => [e, r.turns ? r.counts[e] / r.turns : 0])),
            }));
            if (points.length === 0) return <p className="muted small">No whole session transcripts indexed yet.</p>;
            const longest = Math.max(...points.map((p) => p.key.length));
            const upright = points.length > 8;
            const interval = thinInterval(points.length, Math.max(width - 70, 100), upright ? 18 : longest * 7 + 8);
            const total = points.reduce((n, p) => n + p.turns, 0);
            return (
              <div className="ends-chart" data-testid="turn-ends-chart" data-points={points.length} data-turns={turns} data-dimension={dimension}>
                <p className="muted small">
                  {total.toLocaleString('en')} turn ends ({what}); the tooltip gives each class per 1,000 turn ends.
                  {folded.length < data.rows.length && ` ${data.rows.length} ${dimension}s folded into ${folded.length} ranges of neighbours.`}
                </p>
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
                        const end = name as TurnEnd;
                        const p = item.payload as { turns: number; counts: Record<TurnEnd, number> };
                        return [`${Math.round(Number(value) * 10000) / 10} per 1,000 (${p.counts[end]} of ${p.turns})`, LABEL[end] ?? end];
                      }}
                    />
                    <Legend
                      formatter={(name) => <span style={{ color: 'var(--text)' }}>{LABEL[name as TurnEnd] ?? name}</span>}
                      wrapperStyle={{ fontSize: 12 }}
                    />
                    {TURN_ENDS.map((e) => (
                      <Bar key={e} dataKey={e} stackId="ends" fill={END_COLOR[e]} isAnimationActive={false} />
                    ))}
                  </BarChart>
                </ResponsiveContainer>
                <details className="small muted">
                  <summary>What each ending means</summary>
                  <ul>
                    {TURN_ENDS.map((e) => (
                      <li key={e}>{TURN_END_TEXT[e]}</li>
                    ))}
                  </ul>
                </details>
                <ViewAsData api={`/api/turn-ends${qs}`} />
              </div>
            );
          }}
        </Loaded>
      </div>
    </Section>
  );
}
