import { Command, CommanderError } from 'commander';
import { InputError } from '../scan/walk-inputs';
import { openDatabase } from '../store/database';
import { defaultDbPath } from '../store/default-db-path';
import { RootError } from '../store/roots';
import { formatIndexSummary, runIndex } from './index-command';
import { buildReport, formatReport } from './report-command';
import { formatScanTable, runScan, scanExitCode } from './scan-command';
import { ServeError, startServer } from '../serve';
import { ensureWebBuild } from '../web-build';

const list = (value: string, previous: string[] = []) => [...previous, ...value.split(',').filter(Boolean)];
const DB_HELP = 'index database (default: $TCF_DB, else $XDG_DATA_HOME or ~/.local/share, /tool-call-forensics/index.db)';

const program = new Command();
program
  .name('tool-call-forensics')
  .description('Find the tool calls a coding agent lost, from its saved transcripts. Prints metadata only.')
  .showHelpAfterError()
  .exitOverride();

program
  .command('scan')
  .description('Scan transcript files or folders (walked for *.jsonl; symbolic links never followed) and print payload-free findings.')
  .argument('<path...>', 'files or folders to scan; nothing is scanned unless named here')
  .option('--json', 'print one JSON object instead of a table')
  .action((paths: string[], options: { json?: boolean }) => {
    const report = runScan(paths);
    process.stdout.write(options.json ? JSON.stringify(report) + '\n' : formatScanTable(report));
    process.exitCode = scanExitCode(report);
  });

program
  .command('index')
  .description('Add folders as roots and index them into the local database (metadata only; incremental).')
  .argument('<dir...>', 'folders to add and index; nothing is indexed unless named')
  .option('--db <file>', DB_HELP)
  .action(async (dirs: string[], options: { db?: string }) => {
    const db = openDatabase(options.db ?? defaultDbPath());
    try {
      const summary = await runIndex(db, dirs);
      process.stdout.write(formatIndexSummary(summary));
      process.exitCode = summary.filesFailed > 0 ? 2 : 0;
    } finally {
      db.close();
    }
  });

program
  .command('report')
  .description('Print per-version and per-day counts, denominators and rates from the index.')
  .option('--db <file>', DB_HELP)
  .option('--json', 'print JSON')
  .option('--code <codes>', 'only these finding codes (comma-separated)', list)
  .option('--version <versions>', 'only these Claude Code versions', list)
  .option('--model <models>', 'only these models', list)
  .option('--from <day>', 'from this UTC day (YYYY-MM-DD)')
  .option('--to <day>', 'to this UTC day (YYYY-MM-DD)')
  .option('--sidechain <which>', 'main | sidechain')
  .action((options: { db?: string; json?: boolean; code?: string[]; version?: string[]; model?: string[]; from?: string; to?: string; sidechain?: string }) => {
    const db = openDatabase(options.db ?? defaultDbPath());
    try {
      const filters = {
        codes: options.code, versions: options.version, models: options.model, from: options.from, to: options.to,
        sidechain: options.sidechain === undefined ? undefined : options.sidechain === 'sidechain',
      };
      const report = buildReport(db, filters);
      process.stdout.write(options.json ? JSON.stringify(report) + '\n' : formatReport(report, filters));
    } finally {
      db.close();
    }
  });

program
  .command('serve')
  .description('Serve the dashboard and its JSON API on http://127.0.0.1:4319 (index the given folders first).')
  .argument('[dir...]', 'folders to add as roots and index before serving')
  .option('--db <file>', DB_HELP)
  .option('--port <n>', 'port', (v) => Number.parseInt(v, 10), 4319)
  .option('--host <address>', 'address to bind', '127.0.0.1')
  .option('--allow-remote', 'allow binding a non-loopback address (prints a warning)')
  .option('--demo', 'index the bundled demo corpus into a separate demo database and serve it')
  .option('--no-build', 'serve the page as last built, without checking its sources')
  .action(async (dirs: string[], options: { db?: string; port: number; host: string; allowRemote?: boolean; demo?: boolean; build: boolean }) => {
    if (options.build) await ensureWebBuild((line) => process.stdout.write(line + '\n'));
    const server = await startServer({ ...options, dirs });
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version exit 0; usage mistakes exit 2 (1 is reserved for "findings").
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof InputError || error instanceof RootError || error instanceof ServeError) {
    process.stderr.write(`error: ${error.message}\n`);
  } else {
    // Unexpected failures are reported by kind only: their messages could quote file contents or paths.
    process.stderr.write(`error: internal failure (${error instanceof Error ? error.name : 'unknown'})\n`);
  }
  if (!(error instanceof CommanderError)) process.exitCode = 2;
}
