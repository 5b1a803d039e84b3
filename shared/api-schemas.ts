/**
 * Every request and response of the JSON API, declared once. Fastify validates requests and
 * serializes responses with these (so a field not declared here can never reach a client), and
 * the web page imports their static types. Nothing here may carry payload: only codes, labels,
 * relative file names, lines, digests, days, versions, model ids and counts.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { MODEL_LIST_PATTERN } from './model-id';
import { SESSION_ENDS, type SessionEnd } from './session-ends';
import { TURN_END_API_ERROR_KINDS, TURN_ENDS, type TurnEnd } from './turn-ends';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const DayPattern = '^\\d{4}-\\d{2}-\\d{2}$';
/**
 * Model ids, comma-separated (1–400 characters): each a model id as shared/model-id.ts defines it, the
 * definition the scanner stores by (`qwen3-coder:30b`, `Kimi-K2`, `moonshotai/kimi-k2-instruct`), or `unknown`.
 */
export const ModelListPattern = MODEL_LIST_PATTERN;
/** An agent's name (shared/agents.ts). */
const AgentName = Type.String({ pattern: '^[a-z-]{1,20}$' });
const Day = Type.String({ pattern: DayPattern });

export const ErrorBody = Type.Object({
  /** code: one of shared/api-errors.ts (the error table of server/routes/README.md); status_code: its HTTP status. */
  error: Type.Object({ status_code: Type.Integer(), code: Type.String(), message: Type.String() }),
});
export type ErrorBody = Static<typeof ErrorBody>;

export const Interval = Type.Object({ rate: Type.Number(), low: Type.Number(), high: Type.Number() });
export type Interval = Static<typeof Interval>;

/** Filters shared by rate and findings endpoints; lists are comma-separated. */
export const FilterQuery = Type.Object({
  code: Type.Optional(Type.String({ pattern: '^[a-z0-9_,]{1,400}$' })),
  version: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z.,-]{1,400}$' })),
  /** Model ids (comma-separated; shared/model-id.ts): `qwen3-coder:30b`, `Kimi-K2`, `moonshotai/kimi-k2-instruct`, or unknown. */
  model: Type.Optional(Type.String({ pattern: ModelListPattern })),
  /** Efforts (comma-separated): low, medium, high, xhigh, max…, or unknown. */
  effort: Type.Optional(Type.String({ pattern: '^[a-z,]{1,200}$' })),
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  /** Folder ids (comma-separated). */
  folder: Type.Optional(Type.String({ pattern: '^[0-9,]{1,100}$' })),
  sidechain: Type.Optional(Type.Union([Type.Literal('main'), Type.Literal('sidechain'), Type.Literal('all')])),
  /** Agents (comma-separated): claude-code, codex, opencode, copilot-cli, pi, gemini-cli (shared/agents.ts). */
  agent: Type.Optional(Type.String({ pattern: '^[a-z,-]{1,200}$' })),
});
export type FilterQuery = Static<typeof FilterQuery>;

export const CodeRate = Type.Object({
  code: Type.String(),
  count: Type.Integer(),
  /** What the code's rate is measured over (FINDING_OPPORTUNITY in shared/denominators.ts). */
  opportunity: Type.String(),
  /** How many such messages the row holds. */
  opportunities: Type.Integer(),
  /** The code's rate per 1,000 opportunities with its 95% interval; null when not measurable. */
  per_1000_opportunities: Nullable(Interval),
  /** Why there is no rate (a NOT_MEASURABLE_REASON code); null when there is one. */
  not_measurable: Nullable(Type.String()),
});
export type CodeRate = Static<typeof CodeRate>;

/** A row's figures; each row adds the dimension it is a row of (day, week, version, model). */
const RateFigures = {
  assistant_messages: Type.Integer(),
  tool_use_turns: Type.Integer(),
  /** Messages with a recorded stop reason: coverage is this over assistant_messages. */
  stop_known_messages: Type.Integer(),
  /** Messages read from stream captures. */
  capture_messages: Type.Integer(),
  /** Harness-written rows (`<synthetic>` model or isApiErrorMessage): counted here only, in no denominator. Always sent. */
  synthetic_messages: Type.Optional(Type.Integer()),
  /** stop_known_messages / assistant_messages (0–1); null without messages. Always sent. */
  stop_reason_coverage: Type.Optional(Nullable(Type.Number())),
  codes: Type.Array(CodeRate),
};

/**
 * Rates per agent and version (null: not recorded): versions are per agent, so the same version string
 * written by two agents is two rows (issue 34).
 */
export const VersionRateRow = Type.Object({ agent: AgentName, version: Nullable(Type.String()), ...RateFigures });
export type VersionRateRow = Static<typeof VersionRateRow>;
/** Rates per model (null: not recorded). */
export const ModelRateRow = Type.Object({ model: Nullable(Type.String()), ...RateFigures });
export type ModelRateRow = Static<typeof ModelRateRow>;
/** A rate row per effort the replies were asked at (null: nothing recorded one). */
export const EffortRateRow = Type.Object({ effort: Nullable(Type.String()), ...RateFigures });
export type EffortRateRow = Static<typeof EffortRateRow>;
/** Rates per day (`bucket=day`: `day`) or per week (`bucket=week`: `week`, its Monday); null: no timestamp. */
export const TimelineRow = Type.Object({ day: Type.Optional(Nullable(Type.String())), week: Type.Optional(Nullable(Type.String())), ...RateFigures });
export type TimelineRow = Static<typeof TimelineRow>;
/** The figures every rate row carries, whatever its dimension. */
export type RateFigures = Omit<VersionRateRow, 'agent' | 'version'>;

/** Why the server opened the index read-only (shared/read-only.ts says each in words). */
export const ReadOnlyReason = Type.Union([
  Type.Literal('requested'),
  Type.Literal('read_only_file_system'),
  Type.Literal('file_not_writable'),
  Type.Literal('folder_not_writable'),
]);

export const HealthResponse = Type.Object({
  status: Type.Literal('ok'),
  tool_version: Type.String(),
  detector_definitions_version: Type.Integer(),
  demo: Type.Boolean(),
  /** The server opened the index without writing it: every state change answers 409 `read_only`. */
  read_only: Type.Boolean(),
  /** Why (null when writable). */
  read_only_reason: Nullable(ReadOnlyReason),
  /** An opaque id of the index served (random, made with the index; it names no path): the Stop hook links only to a dashboard serving its own index. */
  index_id: Nullable(Type.String()),
});
export type HealthResponse = Static<typeof HealthResponse>;

/** A folder the owner added (the store calls it a root). */
export const Folder = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  /** The absolute path: shown only on the owner's Folders page, never elsewhere or in exports. */
  path: Type.String(),
  added_at: Type.String(),
  last_indexed_at: Nullable(Type.String()),
  files: Type.Integer(),
  files_failed: Type.Integer(),
  files_in_progress: Type.Integer(),
  /** Transcripts no longer on disk whose metadata the index keeps (issue 27: Claude Code deletes old transcripts). */
  files_gone: Type.Integer(),
  /** The day (UTC) of the oldest gone transcript's first message; null without one. */
  gone_oldest_day: Nullable(Type.String()),
  /**
   * Show the cleanupPeriodDays explanation for this folder: its oldest transcript on disk is 25 days old or more
   * and the index holds older gone ones (or none are gone yet and the folder looks like ~/.claude/projects).
   */
  cleanup_note: Type.Boolean(),
  /** Removed with its history kept: no longer indexed or watched, its files kept as gone until forgotten; null while active. */
  removed_at: Nullable(Type.String()),
  /**
   * The agents whose files the folder holds, each with its files and its own deletion rule (shared/agent-retention.ts):
   * the setting and its default age in days, null when the agent deletes nothing by itself.
   */
  retention: Type.Array(
    Type.Object({
      agent: Type.String({ pattern: '^[a-z-]{1,20}$' }),
      files: Type.Integer(),
      setting: Nullable(Type.String({ pattern: '^[A-Za-z.]{1,40}$' })),
      default_days: Nullable(Type.Integer()),
      since: Nullable(Type.String({ pattern: '^[0-9.]{1,20}$' })),
    }),
  ),
  /** Damaged files of this folder are salvaged (their complete rows read) instead of failing closed. */
  salvage: Type.Boolean(),
});
export type Folder = Static<typeof Folder>;

export const FolderSettingsBody = Type.Object({ salvage: Type.Boolean() }, { additionalProperties: false });
export type FolderSettingsBody = Static<typeof FolderSettingsBody>;

export const FoldersResponse = Type.Object({ rows: Type.Array(Folder) });
export type FoldersResponse = Static<typeof FoldersResponse>;

export const AddFolderBody = Type.Object(
  { path: Type.String({ minLength: 1, maxLength: 4096 }), label: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })) },
  { additionalProperties: false },
);
export type AddFolderBody = Static<typeof AddFolderBody>;

export const FolderIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/** DELETE /api/folders/:id: forget=true drops the folder's history too; by default it is kept (its files as gone). */
export const RemoveFolderQuery = Type.Object({ forget: Type.Optional(Type.Boolean()) });
export type RemoveFolderQuery = Static<typeof RemoveFolderQuery>;

export const FileIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/**
 * POST /api/forget: what to forget, every criterion given must hold (at least one): gone files, files whose last
 * message is before a UTC day, one folder's files. dry_run: only count.
 */
export const ForgetBody = Type.Object(
  {
    gone: Type.Optional(Type.Literal(true)),
    before: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })),
    folder: Type.Optional(Type.Integer({ minimum: 1 })),
    dry_run: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ForgetBody = Static<typeof ForgetBody>;

/** What a forget removed (or, dry_run, would remove): counts only. */
export const ForgetResponse = Type.Object({
  forgotten: Type.Boolean(),
  files: Type.Integer(),
  /** Of files, those no longer on disk. */
  files_gone: Type.Integer(),
  findings: Type.Integer(),
  assistant_messages: Type.Integer(),
  /** Folders removed with their history kept that were left empty, and so removed too. */
  folders: Type.Integer(),
});
export type ForgetResponse = Static<typeof ForgetResponse>;

/** POST /api/index-runs: one folder (folder_id), or every folder when absent. */
export const StartIndexRunBody = Type.Object({ folder_id: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false });
export type StartIndexRunBody = Static<typeof StartIndexRunBody>;

/** The server's index run as the API observes it (GET /api/index-runs/current, and every `progress` event). */
export const IndexRunState = Type.Object({
  state: Type.Union([Type.Literal('idle'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
  /** The finished run's record (table index_runs); null until a run finished. */
  index_run_id: Nullable(Type.Integer()),
  /** The folder this run indexes; null: every folder. */
  folder_id: Nullable(Type.Integer()),
  phase: Nullable(Type.String()),
  files_done: Type.Integer(),
  files_total: Type.Integer(),
  bytes_done: Type.Integer(),
  bytes_total: Type.Integer(),
  files_failed: Type.Integer(),
  bytes_per_second: Type.Number(),
  eta_seconds: Nullable(Type.Number()),
  started_at: Nullable(Type.String()),
  finished_at: Nullable(Type.String()),
  findings_added: Type.Integer(),
  findings_removed: Type.Integer(),
});
export type IndexRunState = Static<typeof IndexRunState>;

/** One record (not a list): its `codes` are the figures per code, as in a rate row. */
export const SummaryResponse = Type.Object({
  /** Folders, plus imported team machines (each counts as one). */
  folders: Type.Integer(),
  folders_never_indexed: Type.Integer(),
  files_ok: Type.Integer(),
  files_failed: Type.Integer(),
  files_in_progress: Type.Integer(),
  /** Of files_ok, the transcripts no longer on disk whose metadata the index keeps (still counted everywhere). */
  files_gone: Type.Integer(),
  assistant_messages: Type.Integer(),
  tool_use_turns: Type.Integer(),
  /** Messages with a recorded stop reason: coverage is this over assistant_messages. */
  stop_known_messages: Type.Integer(),
  /** Messages read from stream captures. */
  capture_messages: Type.Integer(),
  /** Harness-written rows (`<synthetic>` model or isApiErrorMessage): counted here only, in no denominator. */
  synthetic_messages: Type.Integer(),
  /** stop_known_messages / assistant_messages (0–1); null without messages. */
  stop_reason_coverage: Nullable(Type.Number()),
  codes: Type.Array(CodeRate),
  first_day: Nullable(Type.String()),
  last_day: Nullable(Type.String()),
  /** Files read (a reader recognised them, not empty) by format: transcript, stream-json, sse. */
  files_by_format: Type.Record(Type.String(), Type.Integer()),
  /** Zero-byte or blank-only files: neither read nor failed. This and the two beside it count the local index's files only (team aggregates hold no file rows). */
  files_empty: Type.Integer(),
  /** Failed files by code (unknown_format, entire_compact_transcript, malformed_json, …). */
  files_refused_by_code: Type.Record(Type.String(), Type.Integer()),
  /** Of files_ok, those read in salvage mode around damaged lines (listed by GET /api/files?status=salvaged). */
  files_salvaged: Type.Integer(),
});
export type SummaryResponse = Static<typeof SummaryResponse>;

export const TimelineQuery = Type.Object({
  ...FilterQuery.properties,
  bucket: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('week')])),
});
export type TimelineQuery = Static<typeof TimelineQuery>;

/** The first day an agent's version was seen (versions are per agent: two agents' same version string are two markers). */
export const VersionMarker = Type.Object({ agent: AgentName, version: Type.String(), first_day: Type.String() });

/** A code with no finding anywhere in a rate answer, with its opportunities summed over the answer's rows. */
export const QuietCode = Type.Object({ code: Type.String(), opportunity: Type.String(), opportunities: Type.Integer() });
export type QuietCode = Static<typeof QuietCode>;

/**
 * What a sparse rate answer adds (shared/sparse-rates.ts): each row's `codes` holds only the codes it
 * counts findings of; `codes` names every code the rows were figured for, in order (the page rebuilds a
 * zero's rate from the row's denominators); `quiet_codes` those with no finding in any row.
 */
const SparseCodes = { codes: Type.Array(Type.String()), quiet_codes: Type.Array(QuietCode) };

export const TimelineResponse = Type.Object({
  bucket: Type.Union([Type.Literal('day'), Type.Literal('week')]),
  rows: Type.Array(TimelineRow),
  version_markers: Type.Array(VersionMarker),
  ...SparseCodes,
});
export type TimelineResponse = Static<typeof TimelineResponse>;

export const VersionRatesResponse = Type.Object({ rows: Type.Array(VersionRateRow), ...SparseCodes });
export type VersionRatesResponse = Static<typeof VersionRatesResponse>;
export const ModelRatesResponse = Type.Object({ rows: Type.Array(ModelRateRow) });
export type ModelRatesResponse = Static<typeof ModelRatesResponse>;
export const EffortRatesResponse = Type.Object({ rows: Type.Array(EffortRateRow) });
export type EffortRatesResponse = Static<typeof EffortRatesResponse>;

/** Rates per agent, version and model (the agent's version: two agents' same version string are two rows). */
export const VersionModelRow = Type.Object({ agent: AgentName, version: Nullable(Type.String()), model: Nullable(Type.String()), ...RateFigures });
export type VersionModelRow = Static<typeof VersionModelRow>;

export const VersionModelResponse = Type.Object({ rows: Type.Array(VersionModelRow), ...SparseCodes });
export type VersionModelResponse = Static<typeof VersionModelResponse>;

/** Rates per version and effort: the effort breakdown on the Versions page. */
export const VersionEffortRow = Type.Object({ agent: AgentName, version: Nullable(Type.String()), effort: Nullable(Type.String()), ...RateFigures });
export type VersionEffortRow = Static<typeof VersionEffortRow>;
export const VersionEffortResponse = Type.Object({ rows: Type.Array(VersionEffortRow) });
export type VersionEffortResponse = Static<typeof VersionEffortResponse>;

export const FindingsQuery = Type.Object({
  ...FilterQuery.properties,
  sort: Type.Optional(Type.Union([Type.Literal('day_asc'), Type.Literal('day_desc')])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  cursor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,200}$' })),
});
export type FindingsQuery = Static<typeof FindingsQuery>;

export const FindingIdPattern = '^[0-9]{1,9}-[0-9a-f]{16}$';

export const Finding = Type.Object({
  /** The finding's id, stable across re-indexing an unchanged file: `<first line>-<16 hex of SHA-256(folder id, file, code, first line)>`. */
  id: Type.String({ pattern: FindingIdPattern }),
  code: Type.String(),
  folder_id: Type.Integer(),
  /** The folder's label. */
  folder: Type.String(),
  file: Type.String(),
  lines: Type.Tuple([Type.Integer(), Type.Integer()]),
  source_lines: Type.Array(Type.Integer()),
  evidence_sha256: Type.String(),
  day: Nullable(Type.String()),
  version: Nullable(Type.String()),
  model: Nullable(Type.String()),
  /** The agent whose transcript holds it (shared/agents.ts); `version` is that agent's version. */
  agent: AgentName,
  block_types: Type.Array(Type.String()),
  signed_thinking: Type.Boolean(),
  sidechain: Type.Boolean(),
  /** False for a copy of a message already counted in another file of the same folder. */
  counted: Type.Boolean(),
  /** Detector-specific metadata: codes, counts and fixed list entries only. */
  details: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
});
export type Finding = Static<typeof Finding>;

export const FindingsResponse = Type.Object({ rows: Type.Array(Finding), next_cursor: Nullable(Type.String()), total: Type.Integer() });
export type FindingsResponse = Static<typeof FindingsResponse>;

export const FilesQuery = Type.Object({
  /** problems (default): failed and being written; salvaged: read around damaged lines at the owner's request (counted, labelled). */
  status: Type.Optional(
    Type.Union([Type.Literal('failed'), Type.Literal('in_progress'), Type.Literal('problems'), Type.Literal('gone'), Type.Literal('salvaged')]),
  ),
  folder: FilterQuery.properties.folder,
});
export type FilesQuery = Static<typeof FilesQuery>;

export const FileProblem = Type.Object({
  id: Type.Integer(),
  folder_id: Type.Integer(),
  /** The folder's label. */
  folder: Type.String(),
  file: Type.String(),
  /** The agent whose format the file is in (shared/agents.ts); null for a file not read (failed, being written). */
  agent: Nullable(AgentName),
  /**
   * gone: read whole, then deleted on disk; its metadata is kept and counted (issue 27). salvaged: read
   * in salvage mode around damaged lines (counted); error_code and error_line name its first damaged line.
   */
  status: Type.Union([Type.Literal('failed'), Type.Literal('in_progress'), Type.Literal('gone'), Type.Literal('salvaged')]),
  error_code: Nullable(Type.String()),
  error_line: Nullable(Type.Integer()),
  /** A salvaged file: how many damaged lines were read around (each a code and a line in the index). */
  damaged_lines: Type.Optional(Type.Integer()),
  size: Type.Integer(),
  indexed_at: Type.String(),
  /** unknown_format: what the file looks like (a fixed name of shared/format-hints.ts), when cheap to tell; else null. */
  format_hint: Nullable(Type.String()),
  /** A gone file: when the index last saw it on disk (it was deleted after); null otherwise. */
  gone_since: Nullable(Type.String()),
  /** A gone file: the day (UTC) of its first message; null otherwise. */
  first_day: Nullable(Type.String()),
});
export type FileProblem = Static<typeof FileProblem>;

/** A file that was read, holding rows of types the reader does not know (counted by name, never a failure). */
export const FileUnknownRows = Type.Object({
  id: Type.Integer(),
  folder_id: Type.Integer(),
  folder: Type.String(),
  file: Type.String(),
  /** The agent whose format the file is in (shared/agents.ts). */
  agent: Nullable(AgentName),
  /** By name; names failing the metadata pattern, and rows without a type, are `other`. */
  unknown_row_types: Type.Array(Type.Object({ type: Type.String(), count: Type.Integer() })),
});
export type FileUnknownRows = Static<typeof FileUnknownRows>;

export const FilesResponse = Type.Object({
  rows: Type.Array(FileProblem),
  /** Files read that hold rows of unknown types, most such rows first (at most 500). */
  unknown_rows: Type.Array(FileUnknownRows),
  /** Zero-byte or blank-only files: neither read nor failed. */
  files_empty: Type.Integer(),
});
export type FilesResponse = Static<typeof FilesResponse>;

/** One side of a test or comparison for one code, over the code's own opportunities (names as in CodeRate). */
export const SideFigures = Type.Object({
  count: Type.Integer(),
  /** What the code's rate is measured over (FINDING_OPPORTUNITY). */
  opportunity: Type.String(),
  opportunities: Type.Integer(),
  /** Findings per 1,000 opportunities with a 95% Wilson interval; null when not measurable. */
  per_1000_opportunities: Nullable(Interval),
  /** Why there is no rate on this side (a NOT_MEASURABLE_REASON code); null when there is one. */
  not_measurable: Nullable(Type.String()),
  tool_use_turns: Type.Integer(),
});
export type SideFigures = Static<typeof SideFigures>;

export const RegressionVerdict = Type.Object({
  code: Type.String(),
  /** null: every model together. */
  model: Nullable(Type.String()),
  dimension: Type.Union([Type.Literal('version'), Type.Literal('day')]),
  /** not_measurable: the code has no opportunities in any version (or day) in scope. */
  status: Type.Union([Type.Literal('regression'), Type.Literal('no_regression'), Type.Literal('insufficient_data'), Type.Literal('not_measurable')]),
  /** What the code's rate is measured over (FINDING_OPPORTUNITY). */
  opportunity: Type.String(),
  /** With status not_measurable: why (a NOT_MEASURABLE_REASON code); otherwise null. */
  not_measurable: Nullable(Type.String()),
  /** Versions (or days) left out of the test because the code had no opportunities there. */
  not_measurable_keys: Type.Array(Type.String()),
  last_good: Nullable(Type.String()),
  first_bad: Nullable(Type.String()),
  /** Pooled figures up to the last good version (or before the change day). */
  before: Nullable(SideFigures),
  /** Pooled figures from the first bad version (or the change day) on. */
  after: Nullable(SideFigures),
  p_value: Nullable(Type.Number()),
  /** The Bonferroni-corrected threshold the p-value had to beat. */
  threshold: Nullable(Type.Number()),
  tests: Type.Integer(),
  /** One sentence a person can paste: what was found, or why nothing can be said. */
  summary: Type.String(),
});
export type RegressionVerdict = Static<typeof RegressionVerdict>;

/** One side of a verdict card for one code: findings (capped per session) over the code's own opportunities. */
export const CardSide = Type.Object({
  /** Findings counted, at most `session_cap` per session (file) and version or day. */
  count: Type.Integer(),
  /** Findings before the cap. */
  events: Type.Integer(),
  /** Sessions (files) holding at least one. */
  sessions: Type.Integer(),
  /** The code's own opportunities (FINDING_OPPORTUNITY). */
  opportunities: Type.Integer(),
  per_1000_opportunities: Nullable(Interval),
});
export type CardSide = Static<typeof CardSide>;

export const CardCode = Type.Object({
  code: Type.String(),
  opportunity: Type.String(),
  before: CardSide,
  after: CardSide,
  /** Rate after over rate before (Katz log interval; 0.5 added to every cell when a count is 0). */
  rate_ratio: Nullable(Type.Object({ ratio: Type.Number(), low: Type.Number(), high: Type.Number(), corrected: Type.Boolean() })),
  p_value: Nullable(Type.Number()),
  threshold: Nullable(Type.Number()),
  tests: Type.Integer(),
});
export type CardCode = Static<typeof CardCode>;

/**
 * One change point: the codes that step up at the same version (or day) grouped into one story,
 * or one code with findings where there is not enough data to test.
 */
export const VerdictCard = Type.Object({
  id: Type.String(),
  dimension: Type.Union([Type.Literal('version'), Type.Literal('day')]),
  strength: Type.Union([Type.Literal('strong'), Type.Literal('suggestive'), Type.Literal('insufficient')]),
  /** Plain words: "strong evidence", "suggestive", "not enough data: needs ~N more tool-use turns on X". */
  strength_text: Type.String(),
  last_good: Nullable(Type.String()),
  first_bad: Nullable(Type.String()),
  /**
   * Where it starts: the first version or day holding a finding of the card's codes, from the change
   * on (a change card) or at all (a "not enough data" card, whose first_bad is the peak: the highest rate).
   */
  first_finding: Type.Optional(Nullable(Type.String())),
  codes: Type.Array(CardCode),
  /** The test and its correction, for the one-click details. */
  test: Type.String(),
  /**
   * Set when the step coincides with a change of model or effort rather than only of version (or day): the
   * last good and first bad key's tool-use turns counted by model × effort differ (server/query/card-confounds.ts).
   */
  coincides: Type.Optional(Type.Object({ model: Type.Boolean(), effort: Type.Boolean(), text: Type.String() })),
});
export type VerdictCard = Static<typeof VerdictCard>;

export const RegressionsResponse = Type.Object({
  method: Type.String(),
  alpha: Type.Number(),
  /** Least opportunities a version, or either side of a day split, needs to be tested. */
  min_opportunities: Type.Integer(),
  /** The same number under its older name. */
  min_tool_use_turns: Type.Integer(),
  /** Verdict cards, strongest first (the page's first thing): the main collection. */
  rows: Type.Array(VerdictCard),
  /** The per-code tests the cards are built from (every code, and model, tested). */
  verdicts: Type.Array(RegressionVerdict),
  /** At most one per dimension: why nothing can be said, when no card names a change. */
  no_claim: Type.Object({ version: Nullable(Type.String()), day: Nullable(Type.String()) }),
  /** Most findings one session may contribute per code and version or day. */
  session_cap: Type.Integer(),
});
export type RegressionsResponse = Static<typeof RegressionsResponse>;

/** A side of a comparison: versions (`2.1.39`, `2.1.36,2.1.37`, `2.1.36..2.1.39`) or days (`2026-05-01..2026-05-28`). */
export const SideSpecPattern = '^[0-9A-Za-z.,-]{1,400}$';

export const CompareQuery = Type.Object({
  a: Type.String({ pattern: SideSpecPattern }),
  b: Type.String({ pattern: SideSpecPattern }),
  model: FilterQuery.properties.model,
  folder: FilterQuery.properties.folder,
  sidechain: FilterQuery.properties.sidechain,
  code: FilterQuery.properties.code,
  from: FilterQuery.properties.from,
  to: FilterQuery.properties.to,
  version: FilterQuery.properties.version,
  /** Agents: a side's versions are those agents' (versions are per agent). */
  agent: FilterQuery.properties.agent,
});
export type CompareQuery = Static<typeof CompareQuery>;

export const CompareSide = Type.Object({
  spec: Type.String(),
  kind: Type.Union([Type.Literal('versions'), Type.Literal('days')]),
  versions: Type.Array(Type.String()),
  from: Nullable(Type.String()),
  to: Nullable(Type.String()),
  assistant_messages: Type.Integer(),
  tool_use_turns: Type.Integer(),
  /** Messages with a recorded stop reason: coverage is this over assistant_messages. */
  stop_known_messages: Type.Integer(),
  /** Messages read from stream captures. */
  capture_messages: Type.Integer(),
  /** Harness-written rows (`<synthetic>` model or isApiErrorMessage): counted here only, in no denominator. */
  synthetic_messages: Type.Integer(),
  /** stop_known_messages / assistant_messages (0–1); null without messages. */
  stop_reason_coverage: Nullable(Type.Number()),
  /** Coverage: the first and last day with messages on this side. */
  first_day: Type.Optional(Nullable(Type.String())),
  last_day: Type.Optional(Nullable(Type.String())),
});

export const CompareResponse = Type.Object({
  a: CompareSide,
  b: CompareSide,
  method: Type.String(),
  /** One row per code. */
  rows: Type.Array(
    Type.Object({
      code: Type.String(),
      a: SideFigures,
      b: SideFigures,
      /** Rate of b over rate of a (each over the code's opportunities), with a 95% interval (Katz log method; 0.5 added to every cell when a count is 0); null when a side is not measurable. */
      rate_ratio: Nullable(Type.Object({ ratio: Type.Number(), low: Type.Number(), high: Type.Number(), corrected: Type.Boolean() })),
      /** Two-sided Fisher exact test on findings against the code's opportunities without one; null when a side is not measurable. */
      p_value: Nullable(Type.Number()),
      /** True when neither side has a finding of the code: no ratio, no p-value. */
      no_findings: Type.Optional(Type.Boolean()),
    }),
  ),
});
export type CompareResponse = Static<typeof CompareResponse>;

export const RedactionQuery = Type.Object({
  files: Type.Optional(Type.Union([Type.Literal('keep'), Type.Literal('keep-session'), Type.Literal('pseudonymize'), Type.Literal('omit')])),
  lines: Type.Optional(Type.Union([Type.Literal('keep'), Type.Literal('omit')])),
  digests: Type.Optional(Type.Union([Type.Literal('keep'), Type.Literal('omit')])),
  models: Type.Optional(Type.Union([Type.Literal('keep'), Type.Literal('generalize')])),
});
export type RedactionQuery = Static<typeof RedactionQuery>;
export type Redaction = Required<RedactionQuery>;

export const ExportQuery = Type.Object({
  ...FilterQuery.properties,
  ...RedactionQuery.properties,
  format: Type.Optional(Type.Union([Type.Literal('md'), Type.Literal('json')])),
  /** `all`: today's whole-corpus report; `claim` (default): one claim, the strongest card's code (or the one `code`). */
  scope: Type.Optional(Type.Union([Type.Literal('claim'), Type.Literal('all')])),
});
export type ExportQuery = Static<typeof ExportQuery>;

export const ReportRateRow = Type.Object({
  key: Nullable(Type.String()),
  assistant_messages: Type.Integer(),
  tool_use_turns: Type.Integer(),
  /** Messages with a recorded stop reason: coverage is this over assistant_messages (optional in older reports). */
  stop_known_messages: Type.Optional(Type.Integer()),
  /** Messages read from stream captures. */
  capture_messages: Type.Optional(Type.Integer()),
  /** Harness-written rows (`<synthetic>` model or isApiErrorMessage): counted here only, in no denominator. */
  synthetic_messages: Type.Optional(Type.Integer()),
  /** stop_known_messages / assistant_messages (0–1); null without messages. */
  stop_reason_coverage: Type.Optional(Nullable(Type.Number())),
  codes: Type.Array(ReportCodeRate()),
});
export type ReportRateRow = Static<typeof ReportRateRow>;

/** A code's figures in a report row: its rate over its own opportunities (as in CodeRate), or why it has none. */
function ReportCodeRate() {
  return Type.Object({
    code: Type.String(),
    count: Type.Integer(),
    per_1000_tool_use_turns: Nullable(Interval),
    /** The rate over the code's own opportunities (optional: reports before these fields lack them). */
    opportunity: Type.Optional(Type.String()),
    opportunities: Type.Optional(Type.Integer()),
    per_1000_opportunities: Type.Optional(Nullable(Interval)),
    not_measurable: Type.Optional(Nullable(Type.String())),
  });
}

/** One side of a report's claim: findings over the code's own opportunities on the versions (or days) it names. */
export const ClaimSide = Type.Object({
  /** Which versions or days, in words: `up to 2.1.210`, `2.1.211–2.1.220`. */
  label: Type.String(),
  count: Type.Integer(),
  opportunities: Type.Integer(),
  per_1000_opportunities: Nullable(Interval),
});

/** Where one code's findings were seen (the claim, and each other code with findings). */
export const ReportCodeSeen = Type.Object({
  code: Type.String(),
  findings: Type.Integer(),
  /** Files (sessions) holding at least one. */
  sessions: Type.Integer(),
  /** Versions holding at least one, in version order. */
  versions: Type.Array(Type.String()),
  first_day: Nullable(Type.String()),
  last_day: Nullable(Type.String()),
  models: Type.Array(Type.String()),
});

/**
 * The evidence report (`report_format` 2; 1 before issue 28: every rate row listed every code).
 * Documented field by field in server/query/README.md. `verify` reads both formats (it reads only `findings`).
 */
export const EvidenceReport = Type.Object({
  report_format: Type.Union([Type.Literal(1), Type.Literal(2)]),
  tool: Type.Object({ name: Type.Literal('tool-call-forensics'), version: Type.String() }),
  detector_definitions_version: Type.Integer(),
  generated_at: Type.String(),
  /** Built from the bundled demo corpus, not real sessions. */
  demo: Type.Optional(Type.Boolean()),
  /** A suggested issue title, and a headline of one to three sentences (what, how often, since which version, how sure). */
  title: Type.Optional(Type.String()),
  headline: Type.Optional(Type.String()),
  redaction: Type.Object({
    files: Type.Union([Type.Literal('keep'), Type.Literal('keep-session'), Type.Literal('pseudonymize'), Type.Literal('omit')]),
    lines: Type.Union([Type.Literal('keep'), Type.Literal('omit')]),
    digests: Type.Union([Type.Literal('keep'), Type.Literal('omit')]),
    models: Type.Union([Type.Literal('keep'), Type.Literal('generalize')]),
  }),
  filters: Type.Record(Type.String(), Type.String()),
  scanned: Type.Object({
    roots: Type.Integer(),
    files_ok: Type.Integer(),
    files_failed: Type.Integer(),
    files_in_progress: Type.Integer(),
    assistant_messages: Type.Integer(),
    tool_use_turns: Type.Integer(),
    first_day: Nullable(Type.String()),
    last_day: Nullable(Type.String()),
    /** Messages with a recorded stop reason (coverage is this over assistant_messages), capture and harness-written
     * messages, versions and models seen (optional: reports made before these fields lack them). */
    stop_known_messages: Type.Optional(Type.Integer()),
    capture_messages: Type.Optional(Type.Integer()),
    synthetic_messages: Type.Optional(Type.Integer()),
    versions: Type.Optional(Type.Array(Type.String())),
    models: Type.Optional(Type.Array(Type.String())),
    /** Assistant messages per effort they were asked at (`unknown`: none recorded; issue 33). */
    efforts: Type.Optional(Type.Record(Type.String(), Type.Integer())),
    /** Of files_ok, transcripts no longer on disk whose metadata the index kept, and the counted findings from them (issue 27). */
    files_gone: Type.Optional(Type.Integer()),
    findings_from_gone_files: Type.Optional(Type.Integer()),
    /** Of files_ok, files read in salvage mode around damaged lines (their complete rows counted; issue 29). */
    files_salvaged: Type.Optional(Type.Integer()),
  }),
  /** Per week (Monday) figures; the Markdown folds the daily series to these. */
  by_week: Type.Optional(Type.Array(ReportRateRow)),
  /** Names in this report that are derived from home paths (Claude Code project folders), when any. */
  warnings: Type.Optional(Type.Array(Type.String())),
  definitions: Type.Array(Type.Object({ code: Type.String(), definition: Type.String() })),
  by_version: Type.Array(ReportRateRow),
  by_day: Type.Array(ReportRateRow),
  regressions: Type.Object({ method: Type.String(), verdicts: Type.Array(RegressionVerdict) }),
  /** Format 2, unless scope=all: the one claim the report is about (its code, where seen, before and after, the test). */
  claim: Type.Optional(
    Type.Object({
      ...ReportCodeSeen.properties,
      /** `verdict_card` (the strongest card passing its test), `most_findings` (no card passes), `code_filter` (one code asked for). */
      chosen_by: Type.Union([Type.Literal('verdict_card'), Type.Literal('most_findings'), Type.Literal('code_filter')]),
      before: Nullable(ClaimSide),
      after: Nullable(ClaimSide),
      /** The test and its outcome in one sentence. */
      test: Type.String(),
    }),
  ),
  /** Format 2: the other codes with findings, most findings first. */
  other_codes: Type.Optional(Type.Array(ReportCodeSeen)),
  /** Format 2: what a maintainer asks for first. */
  environment: Type.Optional(
    Type.Object({
      /** Entrypoints recorded on the findings' messages (`cli`, `sdk-ts`, …; `other` for an unlisted value). */
      entrypoints: Type.Array(Type.String()),
      /** Effort levels, only when the index records them (null: not recorded). */
      efforts: Nullable(Type.Array(Type.String())),
      /** The reporter's OS and architecture (Node's process.platform and process.arch). */
      os: Type.String(),
      arch: Type.String(),
    }),
  ),
  findings: Type.Array(
    Type.Object({
      code: Type.String(),
      day: Nullable(Type.String()),
      version: Nullable(Type.String()),
      model: Nullable(Type.String()),
      file: Type.Optional(Type.String()),
      lines: Type.Optional(Type.Tuple([Type.Integer(), Type.Integer()])),
      source_lines: Type.Optional(Type.Array(Type.Integer())),
      block_types: Type.Array(Type.String()),
      signed_thinking: Type.Boolean(),
      sidechain: Type.Boolean(),
      counted: Type.Boolean(),
      details: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
      evidence_sha256: Type.Optional(Type.String()),
    }),
  ),
});
export type EvidenceReport = Static<typeof EvidenceReport>;

const TypeCount = Type.Object({ type: Type.String(), count: Type.Integer() });

export const VersionDiagnostic = Type.Object({
  /** The agent whose files these are (shared/agents.ts); the version is that agent's. */
  agent: AgentName,
  version: Nullable(Type.String()),
  text_rows: Type.Integer(),
  tool_use_rows: Type.Integer(),
  text_rows_per_tool_use_row: Nullable(Type.Number()),
  unknown_row_types: Type.Array(TypeCount),
  unknown_block_types: Type.Array(TypeCount),
});
export type VersionDiagnostic = Static<typeof VersionDiagnostic>;

/** GET /api/diagnostics: folder ids and agents (comma-separated; shared/agents.ts). */
export const DiagnosticsQuery = Type.Object({ folder: FilterQuery.properties.folder, agent: FilterQuery.properties.agent });
export type DiagnosticsQuery = Static<typeof DiagnosticsQuery>;

export const DiagnosticsResponse = Type.Object({ rows: Type.Array(VersionDiagnostic) });
export type DiagnosticsResponse = Static<typeof DiagnosticsResponse>;

export const FindingIdParams = Type.Object({ id: Type.String({ pattern: FindingIdPattern }) });
export const FindingDetailQuery = Type.Object({
  /** Rows shown before and after the finding's lines (default 15). */
  context: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
});
export type FindingDetailQuery = Static<typeof FindingDetailQuery>;

/** One row around a finding: only what server/scan/row-metadata.ts lets out. */
export const StripRow = Type.Object({
  line: Type.Integer(),
  type: Type.String({ pattern: '^[a-z-]{1,40}$' }),
  role: Nullable(Type.Union([Type.Literal('user'), Type.Literal('assistant')])),
  blocks: Type.Array(Type.String({ pattern: '^[a-z_]{1,40}$' })),
  stop_reason: Nullable(Type.String({ pattern: '^[a-z_]{1,40}$' })),
  is_error: Type.Boolean(),
  synthetic: Nullable(Type.String({ pattern: '^[a-z_]{1,40}$' })),
  sub_kind: Nullable(Type.String({ pattern: '^[a-z_]{1,40}$' })),
  seconds_since_previous: Nullable(Type.Number()),
  output_tokens: Nullable(Type.Integer()),
  at_max_tokens: Type.Boolean(),
  sidechain: Type.Boolean(),
  tool_calls: Type.Array(Type.Object({ tool: Type.String({ pattern: '^(mcp|other|[A-Z][A-Za-z]{1,30})$' }), empty_input: Type.Boolean() })),
  /** The row is one of the finding's source lines. */
  in_finding: Type.Boolean(),
});
export type StripRow = Static<typeof StripRow>;

export const FindingLink = Type.Object({ id: Type.String(), code: Type.String(), lines: Type.Tuple([Type.Integer(), Type.Integer()]), file: Type.String() });
export type FindingLink = Static<typeof FindingLink>;

/** GET /api/findings/:id: the finding as in the list, plus its turn strip, chain and session. */
export const FindingDetail = Type.Object({
  ...Finding.properties,
  session_hash: Nullable(Type.String()),
  strip: Type.Object({
    /**
     * ok; changed: the file's bytes at the finding's lines differ from the indexed digest; unreadable: the file cannot be opened;
     * gone: the transcript was deleted on disk (its metadata and digest are kept, issue 27) and no row is read.
     */
    status: Type.Union([Type.Literal('ok'), Type.Literal('changed'), Type.Literal('unreadable'), Type.Literal('gone')]),
    message: Type.String(),
    context: Type.Integer(),
    from: Type.Integer(),
    to: Type.Integer(),
    rows: Type.Array(StripRow),
  }),
  /** Findings that belong together with this one (same message, or shared source lines), both ways. */
  chain: Type.Array(FindingLink),
  /** The session's other findings (files sharing its session hash). */
  session: Type.Array(FindingLink),
  /** For the owner's page only (never in an export): a command showing these lines, run in the folder they added; null when the file is gone. */
  local_command: Nullable(Type.String()),
  /** The transcript was deleted on disk after this time (when the index last saw it); null while it is on disk. */
  gone_since: Nullable(Type.String()),
});
export type FindingDetail = Static<typeof FindingDetail>;

export const SessionParams = Type.Object({ hash: Type.String({ pattern: '^[0-9a-f]{16}$' }) });

export const SessionMark = Type.Object({
  line: Type.Integer(),
  kind: Type.Union([Type.Literal('compaction'), Type.Literal('error'), Type.Literal('interrupt'), Type.Literal('api_error'), Type.Literal('retry_nudge')]),
});

export const SessionFile = Type.Object({
  file: Type.String(),
  sidechain: Type.Boolean(),
  /** The agent whose format the file is in (shared/agents.ts). */
  agent: Nullable(AgentName),
  /**
   * `copy`: every model message of this file is also in a file listed before it (a copied or
   * re-saved transcript); it is shown, but its rows are not added to the session's totals.
   */
  role: Type.Union([Type.Literal('main'), Type.Literal('subagent'), Type.Literal('copy')]),
  status: Type.Union([Type.Literal('ok'), Type.Literal('unreadable')]),
  rows: Type.Integer(),
  turns: Type.Integer(),
  calls: Type.Integer(),
  errors: Type.Integer(),
  compactions: Type.Integer(),
  /** Seconds from the first to the last timestamped row; null when unknown. */
  duration_seconds: Nullable(Type.Number()),
  marks: Type.Array(SessionMark),
  findings: Type.Array(FindingLink),
});

export const SessionResponse = Type.Object({
  session_hash: Type.String(),
  first_day: Nullable(Type.String()),
  last_day: Nullable(Type.String()),
  /** The session's files (its transcript, its subagents', and copies of either). */
  rows: Type.Array(SessionFile),
  /** turns: distinct model messages over every file; calls, errors and compactions: over the files that are not copies. */
  totals: Type.Object({ turns: Type.Integer(), calls: Type.Integer(), errors: Type.Integer(), compactions: Type.Integer(), findings: Type.Integer() }),
});
export type SessionResponse = Static<typeof SessionResponse>;

// Session ends and turn ends (their vocabularies are shared/session-ends.ts and shared/turn-ends.ts,
// kept free of TypeBox so that the scanner and the index do not load it).

/** GET /api/session-ends: per version (or model, or day), how many sessions ended each way. */
export const SessionEndsQuery = Type.Object({
  dimension: Type.Optional(Type.Union([Type.Literal('version'), Type.Literal('model'), Type.Literal('day')])),
  /** Folder ids (comma-separated). */
  folder: Type.Optional(Type.String({ pattern: '^[0-9,]{1,100}$' })),
  /** main (default): sessions; sidechain: subagent transcripts; all: both. */
  sidechain: Type.Optional(Type.Union([Type.Literal('main'), Type.Literal('sidechain'), Type.Literal('all')])),
  /** Agents (comma-separated; shared/agents.ts). */
  agent: Type.Optional(Type.String({ pattern: '^[a-z,-]{1,200}$' })),
});
export type SessionEndsQuery = Static<typeof SessionEndsQuery>;

export const SessionEndCounts = Type.Object(
  Object.fromEntries(SESSION_ENDS.map((e) => [e, Type.Integer()])) as Record<SessionEnd, ReturnType<typeof Type.Integer>>,
);

/** A row names its dimension: `version`, `model` or `day` (of the last message judged; null when unknown), as asked. */
export const SessionEndsRow = Type.Object({
  /** Per version only: the agent whose version it is (versions are per agent). */
  agent: Type.Optional(AgentName),
  version: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  model: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  day: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  sessions: Type.Integer(),
  ends: SessionEndCounts,
});
export type SessionEndsRow = Static<typeof SessionEndsRow>;

export const SessionEndsResponse = Type.Object({
  dimension: Type.Union([Type.Literal('version'), Type.Literal('model'), Type.Literal('day')]),
  rows: Type.Array(SessionEndsRow),
});
export type SessionEndsResponse = Static<typeof SessionEndsResponse>;

export const TurnEndDimension = Type.Union([Type.Literal('version'), Type.Literal('model'), Type.Literal('day'), Type.Literal('effort')]);
export type TurnEndDimension = Static<typeof TurnEndDimension>;

/** GET /api/turn-ends: per version (or model, day, effort), how many turns ended each way. */
export const TurnEndsQuery = Type.Object({
  dimension: Type.Optional(TurnEndDimension),
  /** Folder ids (comma-separated). */
  folder: Type.Optional(Type.String({ pattern: '^[0-9,]{1,100}$' })),
  /** main (default): sessions; sidechain: subagent transcripts; all: both. */
  sidechain: Type.Optional(Type.Union([Type.Literal('main'), Type.Literal('sidechain'), Type.Literal('all')])),
  /** last: only each session's last turn (the session end); all (default): every turn. */
  turns: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('last')])),
  /** Agents (comma-separated; shared/agents.ts). */
  agent: Type.Optional(Type.String({ pattern: '^[a-z,-]{1,200}$' })),
  /** Efforts (comma-separated; `unknown` for none recorded). */
  effort: Type.Optional(Type.String({ pattern: '^[a-z,]{1,200}$' })),
});
export type TurnEndsQuery = Static<typeof TurnEndsQuery>;

const counts = <K extends string>(keys: readonly K[]) =>
  Type.Object(Object.fromEntries(keys.map((e) => [e, Type.Integer()])) as Record<K, ReturnType<typeof Type.Integer>>);

export const TurnEndCounts = counts(TURN_ENDS);
export const TurnEndApiErrorCounts = counts(TURN_END_API_ERROR_KINDS);

/** A row names its dimension (`version`, `model`, `day` or `effort` of the turn's last message; null when unknown), as asked. */
export const TurnEndsRow = Type.Object({
  /** Per version only: the agent whose version it is (versions are per agent). */
  agent: Type.Optional(AgentName),
  version: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  model: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  day: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  effort: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** Turn ends counted in the row (the sum of `ends`). */
  turn_ends: Type.Integer(),
  ends: TurnEndCounts,
  /** Each class per 1,000 turn ends of the row (one decimal). */
  per_1000_turn_ends: Type.Object(Object.fromEntries(TURN_ENDS.map((e) => [e, Type.Number()])) as Record<TurnEnd, ReturnType<typeof Type.Number>>),
  /** The `api_error` turn ends by what the error row says. */
  api_error_kinds: TurnEndApiErrorCounts,
});
export type TurnEndsRow = Static<typeof TurnEndsRow>;

export const TurnEndsResponse = Type.Object({
  dimension: TurnEndDimension,
  turns: Type.Union([Type.Literal('all'), Type.Literal('last')]),
  rows: Type.Array(TurnEndsRow),
});
export type TurnEndsResponse = Static<typeof TurnEndsResponse>;

/** GET /api/agents: per agent, what the folders hold of it. */
export const AgentsQuery = Type.Object({
  /** Folder ids (comma-separated). */
  folder: Type.Optional(Type.String({ pattern: '^[0-9,]{1,100}$' })),
});
export type AgentsQuery = Static<typeof AgentsQuery>;

/** One agent's version (null: the format records none) with its files and counts. */
export const AgentVersionRow = Type.Object({
  version: Nullable(Type.String()),
  files: Type.Integer(),
  model_messages: Type.Integer(),
  tool_calls: Type.Integer(),
});

/** Per agent (shared/agents.ts): files read, its own versions, model messages, tool calls and results as its format records them, findings. */
export const AgentRow = Type.Object({
  agent: Type.String({ pattern: '^[a-z-]{1,20}$' }),
  files: Type.Integer(),
  versions: Type.Array(AgentVersionRow),
  model_messages: Type.Integer(),
  tool_calls: Type.Integer(),
  tool_results: Type.Integer(),
  findings: Type.Integer(),
});

export const AgentsResponse = Type.Object({ rows: Type.Array(AgentRow) });
export type AgentsResponse = Static<typeof AgentsResponse>;
