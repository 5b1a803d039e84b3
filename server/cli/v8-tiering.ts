import { setFlagsFromString } from 'node:v8';

/**
 * V8 optimises a function with TurboFan once it has run through its bytecode budget (V8's default:
 * 67,584), and this process's commands that read transcripts (`index`, `scan`, `hook`) set it 8 times
 * higher. The scanner's per-row functions (addAssistant above all, whose rows come in many shapes) were
 * compiled, deoptimised on a row of a new shape and compiled again, two or three times in each
 * thread, on V8's background threads (`--trace-opt`: 100-800 ms of compile each under load). Waiting
 * longer, each is compiled about once, with the feedback of many rows. Fresh `index`, five runs each,
 * the flag on the command line, load 9-11: the 65 MB real corpus 1.40 s CPU against 1.66 s; four
 * copies of it (260 MB) 3.84 s against 4.76 s (16 times: 3.93 s; 4 times: 1.48 s on 65 MB).
 *
 * It is set as the CLI's entry starts (set later, in the index command, it changed nothing measurable:
 * 1.75 s against 1.65 s; here 1.37 s against 1.57 s, as with the flag given to node); V8's flags are the
 * process's, so the index's worker threads share it. The server (`serve`) keeps V8's default.
 */
export const INTERRUPT_BUDGET = 540_672;
const READERS = new Set(['index', 'scan', 'hook']);

const command = process.argv.slice(2).find((a) => !a.startsWith('-'));
if (command !== undefined && READERS.has(command)) setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
