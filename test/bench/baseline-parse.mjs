// The bare baseline the scanner is measured against: read every *.jsonl file under the
// folders named, split on \n and JSON.parse every non-blank line, single-threaded, nothing else.
// A line that does not parse (the generator damages ~1.5% of files on purpose) is counted and
// passed over, so the baseline reads every byte the scanner reads.
// With --document (agents whose file is one JSON document, not a row per line: OpenCode's export), each file is read
// whole and parsed with one JSON.parse instead.
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

function* walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile() && e.name.endsWith('.jsonl')) yield p;
  }
}
let lines = 0;
let bad = 0;
const parse = (text) => {
  try {
    JSON.parse(text);
    lines++;
  } catch {
    bad++;
  }
};
const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
const args = process.argv.slice(2);
const documents = args.includes('--document');
for (const file of args.filter((a) => a !== '--document').flatMap((dir) => [...walk(dir)])) {
  if (documents) {
    parse(readFileSync(file, 'utf8'));
    continue;
  }
  const fd = openSync(file, 'r');
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    const parts = (rest + decoder.write(buf.subarray(0, n))).split('\n');
    rest = parts.pop();
    for (const p of parts) if (p.trim()) parse(p);
  }
  if (rest.trim()) parse(rest);
  closeSync(fd);
}
console.log(JSON.stringify({ lines, bad }));
