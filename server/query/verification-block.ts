/**
 * The compact verification block a Markdown evidence report carries, so `verify` can check what
 * was pasted in a bug tracker exactly as it checks the JSON form. One fenced block:
 *
 *     ~~~tcf-verify
 *     tcf-verify 1 files=pseudonymize
 *     1 unparseable_tool_input 12,13 <sha256> "file-0123456789abcdef"
 *     ~~~
 *
 * A row: the finding's number in the report, its code, its source lines, its evidence digest and
 * its file name as a JSON string (backticks and tildes escaped, so no name can close the fence).
 */

export const VERIFY_BLOCK_VERSION = 1;
const HEADER = /^tcf-verify (\d+) files=(keep|keep-session|pseudonymize)$/;
const ROW = /^(\d{1,9}) ([a-z_]{1,64}) (\d{1,10}(?:,\d{1,10}){0,63}) ([0-9a-f]{64}) ("(?:[^"\\]|\\.)*")$/;

export interface VerifyRow {
  number: number;
  code: string;
  source_lines: number[];
  evidence_sha256: string;
  file: string;
}

export type ParsedRow = VerifyRow | { number: number; bad: string };

const quote = (name: string) => JSON.stringify(name).replace(/`/g, '\\u0060').replace(/~/g, '\\u007e');

export function verificationBlock(files: 'keep' | 'keep-session' | 'pseudonymize', rows: VerifyRow[]): string {
  return [
    '~~~tcf-verify',
    `tcf-verify ${VERIFY_BLOCK_VERSION} files=${files}`,
    ...rows.map((r) => `${r.number} ${r.code} ${r.source_lines.join(',')} ${r.evidence_sha256} ${quote(r.file)}`),
    '~~~',
  ].join('\n');
}

/**
 * The block in a Markdown report: null when there is none. A row that does not parse (edited,
 * cut) is kept as `bad`, numbered by its place, so verify names it instead of passing over it.
 */
export function parseVerificationBlock(text: string): { files: 'keep' | 'keep-session' | 'pseudonymize'; rows: ParsedRow[] } | null {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === '~~~tcf-verify');
  if (start < 0) return null;
  const header = HEADER.exec((lines[start + 1] ?? '').trim());
  if (!header || Number(header[1]) !== VERIFY_BLOCK_VERSION) return null;
  const rows: ParsedRow[] = [];
  for (let i = start + 2; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '~~~') return { files: header[2] as 'keep', rows };
    const m = ROW.exec(line);
    let file: unknown = null;
    try {
      file = m ? JSON.parse(m[5]!) : null;
    } catch {
      file = null;
    }
    if (!m || typeof file !== 'string') {
      rows.push({ number: rows.length + 1, bad: `row ${rows.length + 1} of the verification block does not parse` });
      continue;
    }
    rows.push({ number: Number(m[1]), code: m[2]!, source_lines: m[3]!.split(',').map(Number), evidence_sha256: m[4]!, file });
  }
  // No closing fence: the block was cut; what was read is checked and the cut is reported.
  rows.push({ number: rows.length + 1, bad: 'the verification block has no closing ~~~ (cut when pasted?)' });
  return { files: header[2] as 'keep', rows };
}
