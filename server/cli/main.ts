import { Command, CommanderError } from 'commander';
import { InputError } from '../scan/walk-inputs';
import { formatScanTable, runScan, scanExitCode } from './scan-command';

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

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version exit 0; usage mistakes exit 2 (1 is reserved for "findings").
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof InputError) {
    process.stderr.write(`error: ${error.message}\n`);
  } else {
    // Unexpected failures are reported by kind only: their messages could quote file contents or paths.
    process.stderr.write(`error: internal failure (${error instanceof Error ? error.name : 'unknown'})\n`);
  }
  if (!(error instanceof CommanderError)) process.exitCode = 2;
}
