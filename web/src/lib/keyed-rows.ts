import type { EffortRateRow, ModelRateRow, RateFigures, TimelineRow, VersionRateRow } from '../../../shared/api-schemas';

/**
 * A rate row inside the page's tables and charts, which draw any dimension the same way: the
 * API row's `version`, `model`, `day` or `week` as `key` (null: unknown). The API itself always
 * names the dimension; this is the page's own adapter, made once where a response is used.
 */
export type KeyedRow = RateFigures & { key: string | null };

/** Version rows keep their agent (versions are per agent: the same version string of two agents is two rows). */
export const versionRows = (rows: readonly VersionRateRow[]): Array<KeyedRow & { agent: string }> => rows.map(({ version, ...r }) => ({ key: version, ...r }));
export const effortRows = (rows: readonly EffortRateRow[]): KeyedRow[] => rows.map(({ effort, ...r }) => ({ key: effort, ...r }));
export const modelRows = (rows: readonly ModelRateRow[]): KeyedRow[] => rows.map(({ model, ...r }) => ({ key: model, ...r }));
export const timelineRows = (rows: readonly TimelineRow[]): KeyedRow[] => rows.map(({ day, week, ...r }) => ({ key: day ?? week ?? null, ...r }));
