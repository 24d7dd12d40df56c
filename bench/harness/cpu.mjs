// CPU time of the workerd process, from /proc: user + system ticks.
import { execSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

/** workerd processes started under this Node process (Miniflare spawns one). */
export function findWorkerdPid(parent = process.pid) {
  const queue = [parent];
  while (queue.length) {
    const pid = queue.shift();
    for (const entry of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      let stat;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== pid) continue;
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (comm.startsWith('workerd')) return Number(entry);
      queue.push(Number(entry));
    }
  }
  throw new Error('workerd process not found');
}

export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat (index 11 and 12 after the state field).
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}
