import type { EvidenceReport } from '../../shared/api-schemas';
import { NOT_MEASURABLE_TEXT } from '../../shared/denominators';
import { formatPerMille } from '../../shared/format/per-mille';
import { printable } from '../../shared/printable';
import { versionWords } from './build-evidence-report';
import { verificationBlock } from './verification-block';

/** GitHub refuses an issue or comment over 65,536 characters; the report stays under this. */
export const MARKDOWN_BUDGET = 60_000;
/** The full findings list goes inside <details> only while the whole report stays this short. */
export const FULL_LIST_BUDGET = 20_000;
/** Findings shown in the sample. */
export const SAMPLE_SIZE = 20;

type Row = EvidenceReport['by_version'][number];
type Finding = EvidenceReport['findings'][number];

/**
 * A file name as a Markdown table cell: control characters escaped (a newline would end the
 * row), pipes escaped, in a code span long enough for any backticks inside it.
 */
export function markdownName(name: string): string {
  const text = printable(name).replace(/\|/g, '\\|');
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${fence === '``' ? ' ' : ''}${text}${fence === '``' ? ' ' : ''}${fence}`;
}

/** Pipes escaped, except those a markdownName already escaped. */
const esc = (c: string) => c.replace(/(?<!\\)\|/g, '\\|');
function table(header: string[], rows: string[][]): string {
  return [`| ${header.map(esc).join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

/** `count (rate‰)` over the code's own opportunities; "not measurable (…)" where it has none, never 0‰. */
function cell(row: Row, code: string): string {
  const c = row.codes.find((x) => x.code === code);
  if (!c) return '0';
  if (c.not_measurable) return `${c.count}, ${NOT_MEASURABLE_TEXT[c.not_measurable] ?? 'not measurable'}`;
  const rate = c.per_1000_opportunities !== undefined ? c.per_1000_opportunities : c.per_1000_tool_use_turns;
  return rate ? `${c.count} (${formatPerMille(rate.rate)})` : String(c.count);
}

/** Messages with a recorded stop reason and their share: codes over them are not measurable where it is 0. */
function coverage(r: Row): string {
  if (r.stop_known_messages === undefined) return '–';
  const share = r.assistant_messages > 0 ? `${Number(((100 * r.stop_known_messages) / r.assistant_messages).toFixed(1))}%` : '–';
  return `${r.stop_known_messages} (${share})`;
}

function rateTable(keyName: string, rows: Row[], codes: string[]): string {
  return table(
    [keyName, 'tool-use turns', 'stop reason recorded', ...codes],
    rows.map((r) => [r.key ?? 'unknown', String(r.tool_use_turns), coverage(r), ...codes.map((c) => cell(r, c))]),
  );
}

/** The redacted shape of the lost call, from its detector's metadata: never a value. */
export function shapeOf(f: Finding): string {
  const d = f.details;
  const parts: string[] = [];
  if (typeof d.len === 'number') parts.push(`${d.len} bytes`);
  if (typeof d.raw_chars === 'number' && typeof d.len !== 'number') parts.push(`${d.raw_chars} characters`);
  if (typeof d.stop_offset === 'number' && typeof d.stop_expected === 'string')
    parts.push(`stops at ${d.stop_offset}, expecting ${d.stop_expected.replaceAll('_', ' ')}`);
  if (typeof d.missing_parameter === 'string') parts.push(`missing \`${d.missing_parameter}\``);
  if (f.code === 'missing_tool_use_block') {
    if (f.signed_thinking) parts.push('signed thinking');
    if (typeof d.output_tokens === 'number') parts.push(`${d.output_tokens} output tokens`);
  }
  return parts.join('; ') || '–';
}

const word = (v: unknown) => (typeof v === 'string' ? v.replaceAll('_', ' ') : '–');

/** Findings as a maintainer reads them; `#` is the row's number in the verification block. */
function findingTable(r: EvidenceReport, items: Array<[number, Finding]>, manyCodes: boolean): string {
  const header = ['#'];
  if (manyCodes) header.push('code');
  header.push('version', 'model', 'day', 'tool', 'error kind', 'shape', 'blocks', 'stop reason');
  if (r.redaction.digests === 'keep') header.push('digest');
  return table(
    header,
    items.map(([n, f]) => [
      String(n),
      ...(manyCodes ? [f.code] : []),
      f.version ?? '–',
      f.model ?? '–',
      f.day ?? '–',
      typeof f.details.tool === 'string' ? f.details.tool : '–',
      word(f.details.error_kind ?? f.details.kind),
      shapeOf(f),
      f.block_types.join(', ') + (f.counted ? '' : ' (copy)'),
      word(f.details.stop_reason),
      ...(r.redaction.digests === 'keep' ? [f.evidence_sha256 ? `\`${f.evidence_sha256.slice(0, 12)}\`` : '–'] : []),
    ]),
  );
}

/**
 * Per version, for a person: the versions with findings as rows; the runs of versions without
 * findings within two of them pooled into one row each, and every other version into one last row.
 */
export function versionRowsForReading(rows: Row[]): Row[] {
  const has = rows.map((r) => r.codes.some((c) => c.count > 0));
  const near = rows.map((_, i) => has.slice(Math.max(0, i - 2), i + 3).some(Boolean));
  const out: Row[] = [];
  const pool = (group: Row[], label: string): Row => ({
    key: label,
    assistant_messages: group.reduce((n, r) => n + r.assistant_messages, 0),
    tool_use_turns: group.reduce((n, r) => n + r.tool_use_turns, 0),
    stop_known_messages: group.reduce((n, r) => n + (r.stop_known_messages ?? 0), 0),
    codes: [],
  });
  const far: Row[] = [];
  for (let i = 0; i < rows.length; ) {
    if (has[i]) {
      out.push(rows[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < rows.length && !has[j] && near[j] === near[i]) j++;
    const group = rows.slice(i, j);
    if (near[i]) {
      const a = group[0]!.key ?? 'unknown';
      const b = group[group.length - 1]!.key ?? 'unknown';
      out.push(pool(group, group.length === 1 ? `${a} (no findings)` : `${group.length} versions ${a} to ${b} (no findings)`));
    } else far.push(...group);
    i = j;
  }
  if (far.length) out.push(pool(far, `the other ${far.length} version${far.length === 1 ? '' : 's'} (no findings)`));
  return out;
}

/** Spread a sample over the whole list (first, last and evenly between), so it shows the span. */
function sample<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))]!);
}

const details = (summary: string, body: string) => `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;

export interface RenderedEvidence {
  markdown: string;
  chars: number;
  /** What was folded or left out to stay under the budget (empty when nothing was). */
  omitted: string[];
}

interface Shape {
  sampleSize: number;
  fullList: boolean;
  weeks: 'all' | 'recent' | 'none';
  versions: 'all' | 'recent';
  /** Verification rows for every finding, or for the sample only. */
  verify: 'all' | 'sample';
}

const leftOut = (omitted: string[]) => `Left out to fit a GitHub issue: ${omitted.join('; ')}. The JSON form (\`format=json\`) holds everything.`;

function render(r: EvidenceReport, shape: Shape, omitted: string[]): string {
  const totals = new Map<string, number>();
  for (const row of r.by_version) for (const c of row.codes) totals.set(c.code, (totals.get(c.code) ?? 0) + c.count);
  // The claim's code first, then the others by their findings.
  const codes = r.definitions
    .map((d) => d.code)
    .filter((c) => (totals.get(c) ?? 0) > 0)
    .sort((a, b) => (a === r.claim?.code ? -1 : b === r.claim?.code ? 1 : (totals.get(b) ?? 0) - (totals.get(a) ?? 0)));
  const absent = r.definitions.map((d) => d.code).filter((c) => (totals.get(c) ?? 0) === 0);
  const out: string[] = [];
  out.push(`## ${r.title ?? 'Lost tool calls: evidence report'}`, '');
  if (r.headline) out.push(r.headline, '');

  if (r.claim && r.other_codes?.length) {
    out.push('### Other codes with findings', '');
    for (const o of r.other_codes)
      out.push(
        `- \`${o.code}\`: ${o.findings} in ${o.sessions} session${o.sessions === 1 ? '' : 's'}, Claude Code ${versionWords(o.versions)} ` +
          `(${o.first_day ?? '?'} to ${o.last_day ?? '?'}), ${o.models.join(', ') || 'unknown model'}.`,
      );
    out.push('');
  }

  const verdicts = r.claim ? [] : r.regressions.verdicts.filter((v) => v.model === null && v.status === 'regression' && codes.includes(v.code));
  if (verdicts.length) {
    out.push('### Where it starts', '');
    for (const v of verdicts) out.push(`- by ${v.dimension}: ${v.summary}`);
    out.push('');
  }

  // Findings are numbered in report order; the verification block uses the same numbers.
  const numbered = r.findings.map((f, i) => [i + 1, f] as [number, Finding]);
  if (codes.length) {
    const versions = shape.versions === 'all' ? r.by_version : r.by_version.slice(-12);
    const reading = r.claim ? versionRowsForReading(r.by_version) : versions;
    out.push(
      '### Per Claude Code version',
      '',
      r.claim
        ? 'Versions with findings; the versions without findings pooled (those next to them, then the rest). Findings, and per 1,000 of the messages each code can occur in (see Method).'
        : 'Findings, and per 1,000 of the messages each code can occur in (see Method).',
      '',
      rateTable('version', reading, codes),
      '',
    );
    if (r.claim && shape.versions === 'all') out.push(details(`Every version (${r.by_version.length})`, rateTable('version', r.by_version, codes)), '');

    const picked = sample(numbered, shape.sampleSize);
    out.push(`### Findings: ${picked.length} of ${numbered.length}`, '');
    if (picked.length < numbered.length)
      out.push(`A sample spread over the period; ${numbered.length - picked.length} more are in the JSON form (\`format=json\`).`, '');
    out.push(findingTable(r, picked, codes.length > 1), '');
    if (shape.fullList && picked.length < numbered.length)
      out.push(details(`All ${numbered.length} findings`, findingTable(r, numbered, codes.length > 1)), '');

    const weeks = r.by_week ?? [];
    if (shape.weeks !== 'none' && weeks.length) {
      const shown = shape.weeks === 'all' ? weeks : weeks.slice(-16);
      out.push(details(`Per week (UTC, from Monday): ${shown.length} week${shown.length === 1 ? '' : 's'}`, rateTable('week of', shown, codes)), '');
    }
  }

  const s = r.scanned;
  out.push('### Environment', '');
  const coverage =
    s.stop_known_messages !== undefined && s.assistant_messages > 0 ? `${((s.stop_known_messages / s.assistant_messages) * 100).toFixed(0)}%` : '–';
  const vs = s.versions ?? [];
  const env = r.environment;
  out.push(
    r.claim
      ? `- Claude Code versions: ${vs.length ? `${vs.length} (${vs[0]} to ${vs[vs.length - 1]})` : '–'}; findings in ${versionWords([...new Set(r.findings.flatMap((f) => (f.version ? [f.version] : [])))])}`
      : `- Claude Code versions: ${vs.length ? vs.join(', ') : '–'}`,
    ...(env ? [`- Entrypoints (of the findings' messages, as recorded): ${env.entrypoints.length ? env.entrypoints.join(', ') : 'not recorded'}`] : []),
    `- Models: ${s.models?.length ? s.models.join(', ') : '–'}`,
    `- Efforts (assistant messages): ${
      s.efforts && Object.keys(s.efforts).length
        ? Object.entries(s.efforts)
            .map(([e, n]) => `${e} ${n}`)
            .join(', ')
        : '–'
    }`,
    ...(env ? [`- Reporter's system: ${env.os} ${env.arch}`] : []),
    `- Days (UTC): ${s.first_day ?? '–'} to ${s.last_day ?? '–'}`,
    `- Files: ${s.files_ok} read, ${s.files_failed} failed, ${s.files_in_progress} being written (${s.roots} folder${s.roots === 1 ? '' : 's'})`,
    ...(s.files_salvaged !== undefined
      ? [
          s.files_salvaged > 0
            ? `- Salvaged: ${s.files_salvaged} of the files read were damaged (e.g. two rows on one line) and read around their damaged lines at the reporter's request; their complete rows are counted`
            : '- Salvaged: none (no file was read around damaged lines)',
        ]
      : []),
    ...(s.files_gone
      ? [
          `- Kept after deletion: ${s.files_gone} of these transcripts are no longer on disk (Claude Code's cleanup); ${s.findings_from_gone_files ?? 0} of the findings come from them (their metadata and digests are kept in the index)`,
        ]
      : []),
    `- Assistant messages: ${s.assistant_messages}; tool-use turns: ${s.tool_use_turns}; stop reason recorded (coverage): ${coverage}`,
    `- tool-call-forensics ${r.tool.version}, detector definitions v${r.detector_definitions_version}, report format ${r.report_format}, generated at ${r.generated_at}.`,
    ...(env ? ['- Feedback ID: run `/feedback` in Claude Code in an affected session and add the Feedback ID it prints here: `Feedback ID: …`'] : []),
    '',
  );

  if (codes.length) {
    out.push('### Method and definitions', '');
    // A definition may mention another code (a shape value); codes without findings are named once only, in the line at the end.
    const plain = (text: string) => absent.reduce((t, c) => t.replaceAll(c, c.replaceAll('_', ' ')), text);
    for (const d of r.definitions.filter((x) => codes.includes(x.code))) out.push(`- \`${d.code}\`: ${plain(d.definition)}`);
    out.push(
      '',
      'Rates: per 1,000 of the messages a code can occur in (tool-use turns, messages with a recorded stop reason, all model messages, or stream-captured messages), with 95% Wilson intervals in the JSON form; a message copied into several files of one folder counts once ("copy" rows are listed, not counted). ' +
        r.regressions.method,
      '',
    );
  }
  if (absent.length) out.push(`No findings for ${absent.map((c) => `\`${c}\``).join(', ')}.`, '');
  const filters =
    Object.entries(r.filters)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ') || 'none';
  out.push(
    `Redaction: files=${r.redaction.files}, lines=${r.redaction.lines}, digests=${r.redaction.digests}, models=${r.redaction.models}. Filters: ${filters}. ` +
      'Metadata only: no message text, thinking, tool input or output, and no absolute path.',
  );
  const verify = verifyRows(r, numbered, shape.verify === 'all' ? numbered : sample(numbered, shape.sampleSize));
  if (verify) out.push('', verify);
  if (omitted.length) out.push('', leftOut(omitted));
  out.push('');
  return out.join('\n');
}

/** The verification block (in <details>), when the redaction lets a finding be verified at all. */
function verifyRows(r: EvidenceReport, all: Array<[number, Finding]>, rows: Array<[number, Finding]>): string | null {
  const files = r.redaction.files;
  if (files === 'omit' || r.redaction.lines === 'omit' || r.redaction.digests === 'omit' || all.length === 0) return null;
  const usable = rows.flatMap(([n, f]) =>
    f.file && f.source_lines && f.evidence_sha256
      ? [{ number: n, code: f.code, source_lines: f.source_lines, evidence_sha256: f.evidence_sha256, file: f.file }]
      : [],
  );
  const some = usable.length < all.length ? ` (${usable.length} of ${all.length}; the JSON form holds every one)` : '';
  return details(
    `Verification: \`verify\` checks these findings against the transcripts${some}`,
    `Run \`npm run --silent cli -- verify THIS.md <folder>...\` where the transcripts are (with the \`--db\` that exported it).\n\n${verificationBlock(files, usable)}`,
  );
}

/**
 * The report as Markdown a maintainer reads in a minute: title, headline, compact tables for the
 * codes that have findings, weeks folded in <details>, a sample of findings, environment, method.
 * It always fits: when over the budget, it folds and samples further and says what it left out.
 */
export function renderEvidence(r: EvidenceReport, budget = MARKDOWN_BUDGET): RenderedEvidence {
  const steps: Array<[Partial<Shape>, string]> = [
    [{ fullList: false }, `the full list of ${r.findings.length} findings`],
    [{ verify: 'sample' }, 'verification rows of findings outside the sample'],
    [{ weeks: 'recent' }, 'weeks before the last 16'],
    [{ versions: 'recent' }, 'versions before the last 12'],
    [{ sampleSize: 10 }, 'half of the findings sample'],
    [{ weeks: 'none' }, 'the weekly table'],
    [{ sampleSize: 3 }, 'most of the findings sample'],
  ];
  let shape: Shape = { sampleSize: SAMPLE_SIZE, fullList: r.findings.length > SAMPLE_SIZE, weeks: 'all', versions: 'all', verify: 'all' };
  const omitted: string[] = [];
  let text = render(r, shape, omitted);
  // The full list is a convenience: kept only while the report stays short.
  if (shape.fullList && text.length > FULL_LIST_BUDGET) {
    shape = { ...shape, fullList: false };
    text = render(r, shape, omitted);
  }
  // So are verification rows beyond the sample's (the JSON form verifies every finding).
  if (text.length > FULL_LIST_BUDGET && r.findings.length > shape.sampleSize) {
    shape = { ...shape, verify: 'sample' };
    text = render(r, shape, omitted);
  }
  for (const [change, what] of steps) {
    if (text.length <= budget) break;
    shape = { ...shape, ...change };
    omitted.push(what);
    text = render(r, shape, omitted);
  }
  if (text.length > budget) {
    // Last resort: cut the text itself, and still say so (the statement is not cut).
    const note = `\n\n… cut at ${budget} characters.\n\n${leftOut([...omitted, 'the end of the report'])}\n`;
    omitted.push('the end of the report');
    text = text.slice(0, Math.max(0, budget - note.length)) + note;
  }
  return { markdown: text, chars: text.length, omitted };
}

/** The report as Markdown that renders cleanly in a GitHub issue (see renderEvidence). */
export function renderEvidenceMarkdown(r: EvidenceReport): string {
  return renderEvidence(r).markdown;
}
