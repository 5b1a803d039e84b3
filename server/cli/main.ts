// First, before any other module is loaded: V8's tiering for the commands that read transcripts.
import './v8-tiering';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { AGENTS } from '../../shared/agents';
import { ServeError } from '../app/serve-error';
import { toolVersion } from '../build/tool-version';
import { InputError } from '../scan/walk-inputs';
import { addTeamCommands } from '../team/team-commands';
import { BadReportError } from './bad-report-error';
import type { FilterOptions } from './cli-options';
import { UsageError } from './usage-error';

// A reader that stops early (`| head`) closes our stdout: that ends the command, quietly and
// successfully, as it does for any Unix tool (Node ignores SIGPIPE, so it arrives as EPIPE).
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`error: cannot write the output (${error.code ?? 'unknown'})\n`);
  process.exit(2);
});

// Each command imports what it needs when it runs, so `scan` does not pay for the server's
// modules and `--help` answers at once.
async function loadIndex() {
  const [{ openDatabase }, { defaultDbPath }, { runIndex, formatIndexSummary, checkIndexFolders }, options] = await Promise.all([
    import('../store/database'),
    import('../store/default-db-path'),
    import('./index-command'),
    import('./cli-options'),
  ]);
  return { openDatabase, defaultDbPath, runIndex, formatIndexSummary, checkIndexFolders, ...options };
}

/** A port, strictly: digits only, 1-65535 ("45031abc" is refused, not read as 45031). */
function parsePort(value: string): number {
  const port = /^[0-9]{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 1 && port <= 65535)) throw new InvalidArgumentError('the port must be a whole number from 1 to 65535');
  return port;
}

const list = (value: string, previous: string[] = []) => [...previous, ...value.split(',').filter(Boolean)];
/** `--threads`: a whole number of analysis threads, 1 to 64. */
const threadCount = (value: string) => {
  if (!/^[1-9][0-9]?$/.test(value) || Number(value) > 64) throw new InvalidArgumentError('expected a whole number of threads, 1 to 64');
  return Number(value);
};
const DB_HELP = 'index database (default: $TCF_DB, else $XDG_DATA_HOME/tool-call-forensics/index.db, else ~/.local/share/tool-call-forensics/index.db)';

const program = new Command();
program
  .name('tool-call-forensics')
  .description('Find the tool calls a coding agent lost, from its saved transcripts. Prints metadata only.')
  .version(toolVersion(), '-V, --version', "print this tool's version")
  // Options before the command belong to the program, after it to the command: `report --version 2.1.40` filters.
  .enablePositionalOptions()
  // Every usage error is one line on stderr (commander's suggestions joined onto it).
  .configureOutput({ outputError: (text, write) => write(`${text.trim().replace(/\s*\n\s*/g, ' ')} (see --help)\n`) })
  .exitOverride();

program
  .command('scan')
  .description('Scan transcript files or folders (walked for *.jsonl; symbolic links never followed) and print payload-free findings.')
  .argument('<path...>', 'files or folders to scan; nothing is scanned unless named here')
  .option('--json', 'print one JSON object instead of a table')
  .option('--salvage', 'read the complete rows of damaged files (two rows on one line, a torn row) instead of failing them; such files are listed')
  .option('--agent <agents>', `only these agents' transcripts (comma-separated: ${AGENTS.join(', ')}); refused files are listed whatever their agent`, list)
  .action(async (paths: string[], options: { json?: boolean; salvage?: boolean; agent?: string[] }) => {
    const [{ formatScanTable, runScan, scanExitCode }, { terminalOf }, { checkChoice }] = await Promise.all([
      import('./scan-command'),
      import('./terminal'),
      import('./cli-options'),
    ]);
    for (const a of options.agent ?? []) checkChoice('--agent', a, AGENTS);
    const report = runScan(paths, { salvage: options.salvage === true, agents: options.agent });
    process.stdout.write(options.json ? JSON.stringify(report) + '\n' : formatScanTable(report, terminalOf(process.stdout)));
    process.exitCode = scanExitCode(report);
  });

program
  .command('index')
  .description('Add folders and index them into the local database (metadata only; incremental).')
  .argument('<dir...>', 'folders to add and index; nothing is indexed unless named')
  .option('--db <file>', DB_HELP)
  .option('--salvage', 'read the complete rows of damaged files instead of failing them (this run; salvaged files are labelled)')
  .option('--threads <n>', 'analysis threads in all, this one included (default: 1 below ~96 MB to read, else one per core)', threadCount)
  .action(async (dirs: string[], options: { db?: string; salvage?: boolean; threads?: number }) => {
    const { openDatabase, defaultDbPath, runIndex, formatIndexSummary, checkIndexFolders } = await loadIndex();
    checkIndexFolders(dirs);
    const db = openDatabase(options.db ?? defaultDbPath());
    try {
      const summary = await runIndex(db, dirs, { salvage: options.salvage === true, threads: options.threads });
      process.stdout.write(formatIndexSummary(summary));
      process.exitCode = summary.filesFailed > 0 ? 2 : 0;
    } finally {
      db.close();
    }
  });

program
  .command('forget')
  .description(
    'Forget what the index keeps of transcripts (it keeps the metadata of files deleted on disk): a dry run printing counts unless --yes. Criteria combine (all must hold).',
  )
  .option('--gone', "files no longer on disk (deleted by Claude Code's cleanup or by hand)")
  .option('--before <day>', 'files whose last message is before this UTC day (YYYY-MM-DD)')
  .option('--folder <n|path>', 'files of this folder (its number on the Folders page, or its path)')
  .option('--file <rel>', 'this file (its path relative to its folder)')
  .option('--yes', 'forget them (without it nothing is changed)')
  .option('--db <file>', DB_HELP)
  .action(async (options: { gone?: boolean; before?: string; folder?: string; file?: string; yes?: boolean; db?: string }) => {
    const { openDatabase, defaultDbPath } = await loadIndex();
    const { runForget } = await import('./forget-command');
    process.stdout.write(await runForget(options.db ?? defaultDbPath(), options.db !== undefined, options, (path) => openDatabase(path)));
  });

/** The filters `report` and `export` share. */
function withFilterOptions(command: Command): Command {
  return command
    .option('--code <codes>', 'only these finding codes (comma-separated)', list)
    .option('--version <versions>', 'only these Claude Code versions', list)
    .option('--model <models>', 'only these models', list)
    .option('--from <day>', 'from this UTC day (YYYY-MM-DD)')
    .option('--to <day>', 'to this UTC day (YYYY-MM-DD)')
    .option('--sidechain <which>', 'main | sidechain')
    .option('--agent <agents>', `only these agents' transcripts (comma-separated: ${AGENTS.join(', ')})`, list);
}

withFilterOptions(program.command('report'))
  .description(
    'Print the rate tables: findings, denominators and rates per version, day (or week) and model from the index (read-only; for the shareable evidence report, see export).',
  )
  .option('--db <file>', `${DB_HELP}; must exist`)
  .option('--json', 'print JSON (per version and per day)')
  .option('--all', 'every version, day and model as its own row (by default only those with findings, the rest pooled as "other")')
  .option('--wide', 'every selected code and every row, however wide (not fitted to COLUMNS)')
  .action(async (options: FilterOptions & { db?: string; json?: boolean; wide?: boolean; all?: boolean }) => {
    const { defaultDbPath, checkFilterOptions, checkFilterValuesIn, filtersOf, openExistingIndex } = await loadIndex();
    const [{ buildReport, buildTextReport, formatReport }, { terminalOf }] = await Promise.all([import('./report-command'), import('./terminal')]);
    checkFilterOptions(options);
    const db = openExistingIndex(options.db ?? defaultDbPath(), options.db !== undefined);
    try {
      checkFilterValuesIn(db, options);
      const filters = filtersOf(options);
      process.stdout.write(
        options.json
          ? JSON.stringify(buildReport(db, filters)) + '\n'
          : formatReport(buildTextReport(db, filters), filters, {
              wide: options.wide === true,
              all: options.all === true,
              terminal: terminalOf(process.stdout),
            }),
      );
    } finally {
      db.close();
    }
  });

type ExportOptions = FilterOptions & {
  db?: string;
  format: string;
  files: string;
  lines: string;
  digests: string;
  models: string;
  out?: string;
  allCodes?: boolean;
};

withFilterOptions(program.command('export'))
  .description('Print an evidence report for a bug tracker (Markdown or JSON): counts, rates, regression verdicts and findings, redacted.')
  .option('--db <file>', DB_HELP)
  .option('--format <format>', 'md | json', 'md')
  .option('--files <how>', 'keep | keep-session | pseudonymize | omit', 'pseudonymize')
  .option('--lines <how>', 'keep | omit', 'keep')
  .option('--digests <how>', 'keep | omit', 'keep')
  .option('--models <how>', 'keep | generalize', 'keep')
  .option('--out <file>', 'write to this file instead of stdout')
  .option('--all-codes', "the whole corpus's report, every code alike (default: one claim, the strongest card's code; --code C picks it)")
  .action(async (options: ExportOptions) => {
    const { defaultDbPath, checkChoice, checkFilterOptions, checkFilterValuesIn, ensurePseudonymSalt, filtersOf, openExistingIndex } = await loadIndex();
    const { redactionOf } = await import('../query/build-evidence-report');
    const { runExport } = await import('./export-command');
    const { writeFileSync } = await import('node:fs');
    const choices: Record<string, string[]> = {
      format: ['md', 'json'],
      files: ['keep', 'keep-session', 'pseudonymize', 'omit'],
      lines: ['keep', 'omit'],
      digests: ['keep', 'omit'],
      models: ['keep', 'generalize'],
    };
    for (const [key, allowed] of Object.entries(choices)) checkChoice(`--${key}`, (options as unknown as Record<string, string>)[key]!, allowed);
    checkFilterOptions(options);
    const path = options.db ?? defaultDbPath();
    const db = openExistingIndex(path, options.db !== undefined);
    try {
      checkFilterValuesIn(db, options);
      if (options.files === 'pseudonymize' || options.files === 'keep-session') ensurePseudonymSalt(db, path);
      const out = runExport(
        db,
        path,
        filtersOf(options),
        redactionOf(options as never),
        options.format as 'md' | 'json',
        toolVersion(),
        options.allCodes ? 'all' : 'claim',
      );
      // Sizes and warnings go to stderr (stdout stays the report alone), once the report is out: a reader that
      // closed early (`| head`) ends the process quietly, with no note after it.
      const notes = () => {
        for (const note of out.notes) process.stderr.write(`${note}\n`);
      };
      if (options.out) {
        try {
          writeFileSync(options.out, out.text);
        } catch (error) {
          // A coded, one-line error: the path is the user's own, but the system's message is not echoed.
          const code = (error as NodeJS.ErrnoException).code;
          const why: Record<string, string> = {
            ENOENT: 'its folder does not exist',
            EACCES: 'permission denied',
            EPERM: 'permission denied',
            EISDIR: 'it is a folder',
            ENOTDIR: 'a part of its path is not a folder',
            EROFS: 'the file system is read-only',
            ENOSPC: 'the disk is full',
          };
          throw new UsageError(
            `cannot write the report to --out (${typeof code === 'string' && why[code] ? `${code}: ${why[code]}` : 'cannot be written'}); nothing was written`,
          );
        }
        notes();
      } else process.stdout.write(out.text, (error) => error || notes());
    } finally {
      db.close();
    }
  });

program
  .command('verify')
  .description(
    'Recompute the digests of an evidence report (JSON, or Markdown with its verification block) from local files: exit 0 when every finding matches (or is gone: deleted on disk, kept in the index with the same digest), 1 otherwise.',
  )
  .argument('<report>', 'the report: JSON (format 1 or 2), or the Markdown as exported or pasted')
  .argument('<dir...>', 'folders holding the transcripts (the folders that were indexed)')
  .option('--db <file>', `${DB_HELP}; needed to resolve pseudonymized file names`)
  .action(async (reportPath: string, dirs: string[], options: { db?: string }) => {
    const { defaultDbPath, openExistingIndex } = await loadIndex();
    const { formatVerifyResult, readReport, verifyReport } = await import('./verify-command');
    const { existsSync } = await import('node:fs');
    let text: string;
    try {
      text = readReport(reportPath);
    } catch {
      throw new InputError('the report cannot be read');
    }
    // Without --db the default index is used when there is one (it is only needed for pseudonyms).
    const path = options.db ?? defaultDbPath();
    const db = options.db !== undefined || existsSync(path) ? openExistingIndex(path, options.db !== undefined) : null;
    try {
      const results = verifyReport(text, dirs, db);
      for (const r of results) process.stdout.write(`${formatVerifyResult(r)}\n`);
      const counts: Record<string, number> = {};
      for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
      process.stdout.write(
        `${results.length} findings: ${
          Object.entries(counts)
            .map(([k, v]) => `${v} ${k}`)
            .join(', ') || 'none'
        }\n`,
      );
      // A finding whose transcript was deleted on disk but which the index holds with the same digest is not a mismatch.
      process.exitCode = results.every((r) => r.status === 'match' || r.status === 'gone') ? 0 : 1;
    } finally {
      db?.close();
    }
  });

program
  .command('hook')
  .description(
    'Claude Code hooks: `hook stop` / `hook subagent-stop` read the hook JSON on stdin and say when the last turn ended in a known failure; `hook install --print` prints the settings to add. Always exits 0.',
  )
  .argument('<event>', 'stop | subagent-stop | install')
  .option('--print', 'with install: print the settings.json snippet (nothing is written)')
  .option('--port <n>', 'port of a running dashboard to link to when it serves the index of --db (default: $TCF_PORT, else 4319)')
  .option(
    '--index',
    "also index the session's transcript (when under a folder added to the index) so it is kept after Claude Code deletes it; never waits for a running index; with install: print the settings with it",
  )
  .option('--db <file>', `${DB_HELP}: the index --index writes to, and the one a dashboard link must serve`)
  .action(async (event: string, options: { print?: boolean; port?: string; index?: boolean; db?: string }) =>
    (await import('./hook-command')).hookCommand(event, options),
  );

program
  .command('serve')
  .description('Serve the dashboard and its JSON API on http://127.0.0.1:4319 (index the given folders first).')
  .argument('[dir...]', 'folders to add and index before serving')
  .option('--db <file>', DB_HELP)
  .option('--port <n>', 'port (1-65535)', parsePort, 4319)
  .option('--host <address>', 'address to bind', '127.0.0.1')
  .option('--allow-remote', 'allow binding a non-loopback address (prints a warning)')
  .option('--demo', 'index the bundled demo corpus into a separate demo database and serve it')
  .option('--no-build', 'serve the page as last built, without checking its sources')
  .option('--no-watch', 'do not follow the folders for changes (by default changed files are re-indexed as they are written)')
  .option(
    '--read-only',
    'open the index without writing it: browse only, index runs and folder changes are off (chosen by itself when the database or its folder cannot be written)',
  )
  .action(
    async (
      dirs: string[],
      options: { db?: string; port: number; host: string; allowRemote?: boolean; demo?: boolean; build: boolean; watch: boolean; readOnly?: boolean },
    ) => {
      // The server's modules (Fastify and its plugins, Vite) load only for this command, so the
      // other commands start fast.
      const { ensureWebBuild } = await import('../build/web-build');
      const { startServer } = await import('../app/serve');
      if (options.build) await ensureWebBuild((line) => process.stdout.write(line + '\n'));
      const server = await startServer({ ...options, dirs });
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
  );

// Team scale: export-aggregates, import-aggregates, push (server/team/team-commands.ts).
addTeamCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // The store's error classes load only here: importing them up front loaded the store and the
  // database driver (one esbuild chunk) on every command, `scan` and `hook` included.
  const [{ describeDatabaseError }, { IndexBusyError }, { RootError }] = await Promise.all([
    import('../store/database-errors'),
    import('../store/index-lock'),
    import('../store/roots'),
  ]);
  if (error instanceof CommanderError) {
    // Help and version exit 0; usage mistakes exit 2 (1 is reserved for "findings").
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (
    error instanceof UsageError ||
    error instanceof InputError ||
    error instanceof RootError ||
    error instanceof ServeError ||
    error instanceof BadReportError ||
    error instanceof IndexBusyError
  ) {
    process.stderr.write(`error: ${error.message}\n`);
  } else if (describeDatabaseError(error)) {
    // Disk full, a damaged database, one from a newer build…: say which, and what to do.
    process.stderr.write(`error: ${describeDatabaseError(error)!.message}\n`);
  } else {
    // Unexpected failures are reported by kind only: their messages could quote file contents or paths.
    process.stderr.write(`error: internal failure (${error instanceof Error ? error.name : 'unknown'})\n`);
  }
  if (!(error instanceof CommanderError)) process.exitCode = 2;
}
