import type { Command } from 'commander';
import { InputError } from '../scan/walk-inputs';

const DB_HELP = 'index database (default: $TCF_DB, else $XDG_DATA_HOME or ~/.local/share, /tool-call-forensics/index.db)';
const TEAM_DB_HELP = 'team database to load into (default: $XDG_DATA_HOME or ~/.local/share, /tool-call-forensics/team.db)';
const MACHINE_HELP = "this machine's pseudonymous name (stored; default: the stored one, else one made once)";

/** Bad aggregate files, machine names, team databases and ClickHouse failures are the user's to fix: reported by message, exit 2. */
async function reported<T>(run: () => Promise<T>): Promise<T> {
  const [{ AggregateFileError }, { PushError }, { MachineNameError }, { TeamImportError }] = await Promise.all([
    import('./aggregate-format'),
    import('./clickhouse'),
    import('./team-machine-id'),
    import('./team-import'),
  ]);
  try {
    return await run();
  } catch (error) {
    if (error instanceof AggregateFileError || error instanceof PushError || error instanceof MachineNameError || error instanceof TeamImportError) {
      throw new InputError(error.message);
    }
    throw error;
  }
}

async function openIndex(path: string | undefined) {
  const [{ openDatabase }, { defaultDbPath }] = await Promise.all([import('../store/database'), import('../store/default-db-path')]);
  return openDatabase(path ?? defaultDbPath());
}

const machineNote = (id: { machine: string; replaced: string | null }) =>
  id.replaced ? `note: this machine was named ${id.replaced} before; rows pushed under that name stay where they were pushed until deleted\n` : '';

/** export-aggregates, import-aggregates and push: the team commands (server/team/README.md). */
export function addTeamCommands(program: Command): void {
  program
    .command('export-aggregates')
    .description('Write this index as payload-free aggregates (counts per machine, day, version, model, thread and code) for a team to merge.')
    .option('--db <file>', DB_HELP)
    .option('--machine <name>', MACHINE_HELP)
    .option('--out <file>', 'write here (NDJSON, or Parquet when the name ends in .parquet); default: NDJSON on stdout')
    .option('--format <format>', 'ndjson | parquet (default: from the --out name)')
    .action(async (options: { db?: string; machine?: string; out?: string; format?: string }) => {
      if (options.format !== undefined && options.format !== 'ndjson' && options.format !== 'parquet')
        throw new InputError('--format takes one of ndjson, parquet');
      const { collectAggregates } = await import('./collect-aggregates');
      const { aggregatesToNdjson, formatOfName, writeAggregateFile } = await import('./aggregate-files');
      const { toolVersion } = await import('../build/tool-version');
      const format = (options.format ?? (options.out ? formatOfName(options.out) : 'ndjson')) as 'ndjson' | 'parquet';
      if (format === 'parquet' && !options.out) throw new InputError('Parquet needs --out <file>');
      const db = await openIndex(options.db);
      try {
        await reported(async () => {
          const { aggregates, id } = collectAggregates(db, { machine: options.machine, toolVersion: toolVersion() });
          if (options.out) writeAggregateFile(options.out, aggregates, format);
          else process.stdout.write(aggregatesToNdjson(aggregates));
          const h = aggregates.header;
          process.stderr.write(
            machineNote(id) +
              `machine ${h.machine}: ${h.rows} rows (${format}); files ${h.files_ok} ok, ${h.files_damaged} damaged, ${h.files_excluded} excluded; ` +
              `detector definitions v${h.detector_definitions_version}, schema ${h.schema_version}\n`,
          );
        });
      } finally {
        db.close();
      }
    });

  program
    .command('import-aggregates')
    .description("Load aggregate files from several machines into a team database (one transaction; a machine's rows are replaced on re-import).")
    .argument('<file...>', 'aggregate files (NDJSON or Parquet) written by export-aggregates')
    .option('--db <file>', TEAM_DB_HELP)
    .option('--mixed-definitions', 'accept files counted with other detector definitions than this build')
    .action(async (files: string[], options: { db?: string; mixedDefinitions?: boolean }) => {
      const [{ openDatabase }, { teamDbPath }, { importAggregateFiles }] = await Promise.all([
        import('../store/database'),
        import('./team-statements'),
        import('./import-aggregates'),
      ]);
      const db = openDatabase(options.db ?? teamDbPath());
      try {
        const summary = await reported(() => importAggregateFiles(db, files, { mixedDefinitions: options.mixedDefinitions }));
        for (const m of summary.imported) {
          process.stdout.write(`${m.machine}: ${m.cells} cells, ${m.findings} findings${m.replaced ? ' (replaced its earlier import)' : ''}\n`);
        }
        const versions = new Set(summary.machines.map((m) => m.detector_definitions_version));
        process.stdout.write(
          `team database: ${summary.machines.length} machine${summary.machines.length === 1 ? '' : 's'}` +
            (versions.size > 1 ? `; WARNING: detector definitions ${[...versions].map((v) => `v${v}`).join(', ')} are mixed` : '') +
            '\n',
        );
      } finally {
        db.close();
      }
    });

  program
    .command('push')
    .description("Push this index's aggregates to a ClickHouse table over HTTP (idempotent: re-pushing replaces; read with FINAL).")
    .requiredOption('--clickhouse <url>', 'ClickHouse HTTP interface, e.g. http://127.0.0.1:8123 (user:password@ and ?database= are honoured)')
    .option('--machine <name>', MACHINE_HELP)
    .option('--table <name>', 'table (and <name>_machines) to create if needed and fill', 'tcf_aggregates')
    .option('--since <day>', 'push only days from this UTC day on (YYYY-MM-DD; default: all history)')
    .option('--db <file>', DB_HELP)
    .action(async (options: { clickhouse: string; machine?: string; table: string; since?: string; db?: string }) => {
      if (options.since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.since)) throw new InputError('--since takes a UTC day, YYYY-MM-DD');
      const { clickHouseTarget, pushAggregates } = await import('./clickhouse');
      const { collectAggregates } = await import('./collect-aggregates');
      const { toolVersion } = await import('../build/tool-version');
      const target = await reported(async () => clickHouseTarget(options.clickhouse, options.table));
      const db = await openIndex(options.db);
      let collected: ReturnType<typeof collectAggregates>;
      try {
        collected = await reported(async () => collectAggregates(db, { machine: options.machine, toolVersion: toolVersion() }));
      } finally {
        // Read everything, then close: the push itself never holds the index open.
        db.close();
      }
      const pushed = await reported(() => pushAggregates(target, collected.aggregates, { since: options.since }));
      process.stdout.write(
        machineNote(collected.id) +
          `machine ${collected.aggregates.header.machine}: pushed ${pushed.rows} rows to ${options.table} at ${target.where}` +
          (pushed.zeroed > 0 ? `, ${pushed.zeroed} rows gone from the index set to zero` : '') +
          '\n',
      );
    });
}
