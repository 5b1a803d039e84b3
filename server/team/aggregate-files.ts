import { lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import {
  AGGREGATE_FORMAT,
  AggregateFileError,
  type AggregateHeader,
  type AggregateRow,
  type Aggregates,
  COUNT_COLUMNS,
  checkHeader,
  checkRow,
  HEADER_KEY,
  STRING_COLUMNS,
} from './aggregate-format';

export type AggregateFileFormat = 'ndjson' | 'parquet';

const PARQUET_MAGIC = Buffer.from('PAR1');

/** NDJSON: the header on the first line, one row per line after it. */
export function aggregatesToNdjson(a: Aggregates): string {
  return [a.header, ...a.rows].map((x) => JSON.stringify(x)).join('\n') + '\n';
}

/** Parquet: one column per field (strings UTF-8, counts INT64, all required), the header as key-value metadata. */
export function aggregatesToParquet(a: Aggregates): Uint8Array {
  const buffer = parquetWriteBuffer({
    columnData: [
      ...STRING_COLUMNS.map((name) => ({ name, data: a.rows.map((r) => r[name]), type: 'STRING' as const, nullable: false })),
      ...COUNT_COLUMNS.map((name) => ({ name, data: a.rows.map((r) => BigInt(r[name])), type: 'INT64' as const, nullable: false })),
    ],
    kvMetadata: [{ key: HEADER_KEY, value: JSON.stringify(a.header) }],
    createdBy: `${AGGREGATE_FORMAT} schema ${a.header.schema_version}`,
  });
  return new Uint8Array(buffer);
}

/**
 * Writes the file whole or not at all: into a temporary name beside it, then renamed, so an
 * export that fails leaves no half file for a team to import.
 */
export function writeAggregateFile(path: string, a: Aggregates, format: AggregateFileFormat): void {
  const data = format === 'parquet' ? aggregatesToParquet(a) : aggregatesToNdjson(a);
  const partial = `${path}.partial-${process.pid}`;
  try {
    writeFileSync(partial, data);
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/** The format a file name asks for: .parquet, else NDJSON. */
export function formatOfName(path: string): AggregateFileFormat {
  return path.toLowerCase().endsWith('.parquet') ? 'parquet' : 'ndjson';
}

function parseNdjson(text: string, where: string): { header: AggregateHeader; rows: AggregateRow[] } {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const parse = (line: string, n: number): unknown => {
    try {
      return JSON.parse(line);
    } catch {
      throw new AggregateFileError(`${where}, line ${n}: not JSON`);
    }
  };
  if (lines.length === 0) throw new AggregateFileError(`${where}: empty file`);
  const header = checkHeader(parse(lines[0]!, 1), `${where}, line 1`);
  const rows = lines.slice(1).map((line, i) => checkRow(parse(line, i + 2), header, `${where}, line ${i + 2}`));
  return { header, rows };
}

async function parseParquet(bytes: Buffer, where: string): Promise<{ header: AggregateHeader; rows: AggregateRow[] }> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let headerText: string | undefined;
  let objects: Record<string, unknown>[];
  try {
    headerText = parquetMetadata(file).key_value_metadata?.find((kv) => kv.key === HEADER_KEY)?.value;
    objects = headerText === undefined ? [] : await parquetReadObjects({ file });
  } catch {
    throw new AggregateFileError(`${where}: not a readable Parquet file`);
  }
  if (headerText === undefined) throw new AggregateFileError(`${where}: not a tool-call-forensics aggregate file (no header naming ${AGGREGATE_FORMAT})`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(headerText);
  } catch {
    throw new AggregateFileError(`${where}: the header is not JSON`);
  }
  const header = checkHeader(parsed, where);
  // INT64 columns read as BigInt: a safe integer becomes a number, anything else fails the row check.
  const rows = objects.map((o, i) => {
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o))
      row[k] = typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    return checkRow(row, header, `${where}, row ${i + 1}`);
  });
  return { header, rows };
}

/** Reads and checks one aggregate file, NDJSON or Parquet (told apart by Parquet's magic bytes, not the name). */
export async function readAggregateFile(path: string, where: string): Promise<Aggregates> {
  let bytes: Buffer;
  try {
    if (!lstatSync(path).isFile()) throw new AggregateFileError(`${where}: not a regular file (symbolic links are never followed)`);
    bytes = readFileSync(path);
  } catch (error) {
    if (error instanceof AggregateFileError) throw error;
    throw new AggregateFileError(`${where}: cannot be read`);
  }
  const isParquet = bytes.length >= 8 && bytes.subarray(0, 4).equals(PARQUET_MAGIC) && bytes.subarray(-4).equals(PARQUET_MAGIC);
  return isParquet ? parseParquet(bytes, where) : parseNdjson(bytes.toString('utf8'), where);
}
