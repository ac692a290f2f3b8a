// What Linux's /proc tells about the machine and a process (a server's pid, or this one's): the load
// average, CPU time and resident memory.
import fs from 'node:fs';

/** The 1, 5 and 15 minute load averages, as /proc/loadavg gives them ("0.52 0.61 0.58"). */
export const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** utime + stime of process `pid` in clock ticks (1/100 s): fields 14 and 15 of /proc/<pid>/stat. */
export function cpuTicks(pid) {
  // After the parenthesised command name, which may hold spaces.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** utime + stime of process `pid` in seconds. */
export const cpuSeconds = (pid) => cpuTicks(pid) / 100;

/** Process `pid`'s resident memory now (VmRSS) and at its peak (VmHWM), in MiB. */
export function memoryMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n');
  const kb = (name) => Number(status.find((l) => l.startsWith(name)).split(/\s+/)[1]);
  return { rss: Math.round(kb('VmRSS:') / 1024), peak: Math.round(kb('VmHWM:') / 1024) };
}

/** Process `pid`'s peak resident memory (VmHWM) in MiB. */
export const peakRssMb = (pid) => memoryMb(pid).peak;
