// Linux /proc readers: memory (VmRSS, VmHWM, Pss) and CPU time of the server processes, plus a sampler.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let clockTicks = 100;
try {
  clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  // 100 Hz on every mainstream Linux
}

/**
 * VmRSS (current) and VmHWM (the kernel's peak RSS since the process started), in bytes; null once it is gone.
 * @param {number} pid
 * @returns {{ rss: number, hwm: number } | null}
 */
export function memoryOf(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (field) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : Number.NaN;
  };
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/**
 * CPU seconds a process has used so far in user and in kernel mode (threads included, children not); NaN once
 * it is gone. Kernel time is where page-cache copies and socket I/O show up; user time is JS, hashing, ...
 * @param {number} pid
 * @returns {{ user: number, sys: number }}
 */
export function cpuTimesOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm (field 2) may contain spaces and parentheses: split after its closing parenthesis
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / clockTicks, sys: Number(fields[12]) / clockTicks }; // fields 14, 15
  } catch {
    return { user: Number.NaN, sys: Number.NaN };
  }
}

/**
 * Minor page faults of a process so far (threads included): each is a fresh page of memory mapped in, which costs a
 * trap into the kernel, and far more on a virtual machine whose memory the hypervisor maps lazily. NaN once gone.
 * @param {number} pid
 */
export function minorFaultsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]); // field 10, minflt
  } catch {
    return Number.NaN;
  }
}

/** User + system CPU seconds of a process so far. @param {number} pid */
export function cpuSecondsOf(pid) {
  const { user, sys } = cpuTimesOf(pid);
  return user + sys;
}

/** Summed CPU seconds of some processes (those that exited in between are simply missing). @param {number[]} pids */
export function cpuSecondsOfAll(pids) {
  return pids.reduce((sum, pid) => {
    const t = cpuSecondsOf(pid);
    return Number.isFinite(t) ? sum + t : sum;
  }, 0);
}

/**
 * CPU seconds of a process and all its descendants, those already gone included: each live process's own user +
 * kernel time plus the time of the children it has reaped (cutime, cstime), so every process's time counts once,
 * whether it still runs or not. For "what did this bench use" across browsers that come and go.
 * @param {number} pid
 */
export function treeCpuSeconds(pid) {
  let total = 0;
  for (const member of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${member}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields 14-17: utime, stime, cutime, cstime
      total +=
        (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / clockTicks;
    } catch {
      // exited meanwhile: its time moves to its parent's cutime/cstime once reaped
    }
  }
  return total;
}

/** @param {number} pid @returns {number[]} the process and all its descendants */
export function processTree(pid) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // exited meanwhile
    }
  }
  const out = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = /** @type {number} */ (queue.shift());
    out.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return out;
}

/**
 * Proportional set size (shared pages divided among their users) summed over the processes, in bytes. Summing
 * plain RSS would count PostgreSQL's shared buffers once per backend.
 * @param {number[]} pids
 */
export function pssOf(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (match) total += Number(match[1]) * 1024;
    } catch {
      // exited meanwhile, or smaps_rollup unavailable
    }
  }
  return total;
}

/**
 * Samples a process's RSS every `intervalMs` (and, optionally, the PSS of some other processes every second)
 * until stopped. VmHWM already is the exact peak; the samples are a cross-check and a timeline for the JSON.
 * @param {number} pid
 * @param {{ intervalMs?: number, extraPids?: () => number[] }} [options]
 */
export function startMemorySampler(pid, { intervalMs = 100, extraPids } = {}) {
  let peakRss = 0;
  let peakExtraPss = 0;
  let ticks = 0;
  /** @type {Array<[number, number]>} */
  const timeline = [];
  const started = Date.now();
  const sample = () => {
    const mem = memoryOf(pid);
    if (mem) {
      peakRss = Math.max(peakRss, mem.rss);
      if (ticks % 10 === 0) timeline.push([Date.now() - started, mem.rss]);
    }
    if (extraPids && ticks % Math.max(1, Math.round(1000 / intervalMs)) === 0) {
      peakExtraPss = Math.max(peakExtraPss, pssOf(extraPids()));
    }
    ticks++;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    /** Stops sampling; returns the peaks, with the kernel's VmHWM read last. */
    stop() {
      sample();
      clearInterval(timer);
      const mem = memoryOf(pid);
      return {
        peakRssSampled: peakRss,
        vmHWM: mem ? mem.hwm : Number.NaN,
        peakExtraPss: extraPids ? peakExtraPss : undefined,
        timeline,
      };
    },
    /** The current peaks, without stopping. */
    peek() {
      const mem = memoryOf(pid);
      return { peakRssSampled: peakRss, vmHWM: mem ? mem.hwm : Number.NaN, peakExtraPss };
    },
  };
}

/** CPU seconds the whole machine has spent busy (all CPUs, everything but idle and iowait) since boot. */
export function machineBusySeconds() {
  try {
    const cpu =
      readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    // user nice system idle iowait irq softirq steal ...
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
    return (user + nice + system + irq + softirq + steal) / clockTicks;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU seconds per thread of a process, grouped: "main" (the JS event loop thread), "other threads" (threads still
 * named "node": on Node 20 that is the libuv threadpool doing file I/O, plus V8's GC/compiler helpers), and any
 * other thread names (e.g. worker threads that name themselves). Threads of one group are summed.
 * @param {number} pid
 * @returns {Record<string, number>}
 */
export function threadTimesOf(pid) {
  /** @type {Record<string, number>} */
  const out = {};
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const name = tid === String(pid) ? 'main' : comm === 'node' ? 'other threads' : comm;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / clockTicks;
    } catch {
      // thread ended meanwhile
    }
  }
  return out;
}
