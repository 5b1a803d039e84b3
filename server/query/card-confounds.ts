import type { VerdictCard } from '../../shared/api-schemas';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';
import { cellFilterSql, type FilterParams, filterParams, type RateFilters } from './rate-filters';
import { DENOMINATOR_ROWS_SQL } from './team-database';

/** How far apart two mixes must be (total variation distance, 0–1) for a step to be said to coincide with a change of setting. */
export const MIX_CHANGE = 0.5;

type Mix = Map<string, number>;

function prepare(db: Db) {
  const statement = (column: 'version' | 'day') =>
    db.prepare<FilterParams & { key: string }, { model: string; effort: string; n: number }>(`
      SELECT c.model AS model, c.effort AS effort, sum(rc.tool_use_turns) AS n
      FROM ${DENOMINATOR_ROWS_SQL} rc CROSS JOIN cells c ON c.id = rc.cell_id
      WHERE ${cellFilterSql('rc.root_id')} AND c.${column} = @key
      GROUP BY 1, 2`);
  return { version: statement('version'), day: statement('day') };
}

/** Total variation distance between two mixes (shares of their own totals); 0 when either is empty. */
export function mixDistance(a: Mix, b: Mix): number {
  const ta = [...a.values()].reduce((n, x) => n + x, 0);
  const tb = [...b.values()].reduce((n, x) => n + x, 0);
  if (ta === 0 || tb === 0) return 0;
  let d = 0;
  for (const k of new Set([...a.keys(), ...b.keys()])) d += Math.abs((a.get(k) ?? 0) / ta - (b.get(k) ?? 0) / tb);
  return d / 2;
}

const describe = (mix: Mix) => {
  const total = [...mix.values()].reduce((n, x) => n + x, 0);
  return [...mix.entries()]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 2)
    .map(([k, n]) => `${k || 'unknown'} ${Math.round((n / total) * 100)}%`)
    .join(', ');
};

/**
 * Says, on each card that names a change, whether the step coincides with a change of model or effort
 * rather than of version (or day): the tool-use turns of the last good and the first bad key are counted by
 * model × effort, and a mix that moved by at least MIX_CHANGE (total variation distance) is named, so a
 * version is not blamed for a setting. Cards are changed in place; insufficient cards are left alone.
 */
export function addCoincidences(db: Db, cards: VerdictCard[], filters: RateFilters): void {
  const st = prepared(db, prepare);
  const params = filterParams(filters);
  for (const card of cards) {
    if (card.strength === 'insufficient' || card.last_good === null || card.first_bad === null) continue;
    const mixes = [card.last_good, card.first_bad].map((key) => {
      const models: Mix = new Map();
      const efforts: Mix = new Map();
      for (const r of st[card.dimension].all({ ...params, key })) {
        models.set(r.model, (models.get(r.model) ?? 0) + r.n);
        efforts.set(r.effort, (efforts.get(r.effort) ?? 0) + r.n);
      }
      return { models, efforts };
    });
    const [before, after] = mixes as [(typeof mixes)[0], (typeof mixes)[0]];
    const model = mixDistance(before.models, after.models) >= MIX_CHANGE;
    const effort = mixDistance(before.efforts, after.efforts) >= MIX_CHANGE;
    if (!model && !effort) continue;
    const what = model && effort ? 'a change of model and effort' : model ? 'a change of model' : 'a change of effort';
    const parts: string[] = [];
    if (model) parts.push(`models ${describe(before.models)} → ${describe(after.models)}`);
    if (effort) parts.push(`effort ${describe(before.efforts)} → ${describe(after.efforts)}`);
    card.coincides = {
      model,
      effort,
      text: `This step coincides with ${what}, not only a new ${card.dimension} (tool-use turns of ${card.last_good} and ${card.first_bad} by model × effort: ${parts.join('; ')}). Filter to one model and effort before blaming the ${card.dimension}.`,
    };
  }
}
