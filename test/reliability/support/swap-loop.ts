// Child process for test/reliability: swaps folder argv[2] for a symbolic link to argv[3] and
// back, as fast as it can, until its stdin closes. Prints "swapping" once started.
import { renameSync, symlinkSync, unlinkSync } from 'node:fs';

const [dir, outside] = [process.argv[2]!, process.argv[3]!];
let stop = false;
process.stdin.on('end', () => {
  stop = true;
});
process.stdin.resume();
process.stdout.write('swapping\n');
const step = () => {
  for (let i = 0; i < 200 && !stop; i++) {
    try {
      renameSync(dir, `${dir}.real`);
      symlinkSync(outside, dir);
      unlinkSync(dir);
      renameSync(`${dir}.real`, dir);
    } catch {
      // A half-done swap is put right by the next.
    }
  }
  if (stop) {
    try {
      unlinkSync(dir);
    } catch {}
    try {
      renameSync(`${dir}.real`, dir);
    } catch {}
    process.exit(0);
  }
  setImmediate(step);
};
step();
