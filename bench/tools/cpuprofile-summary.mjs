#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `node --cpu-prof`, e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"
// npm run bench): self time per function and per package, and total (inclusive) time of the functions that
// match an optional filter.
//   node bench/tools/cpuprofile-summary.mjs <file.cpuprofile> [top=25] [filter-regexp]
import { readFileSync } from 'node:fs';

const [file, topArg, filter] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpuprofile-summary.mjs <file.cpuprofile> [top] [filter-regexp]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
/** @type {{ nodes: Array<{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }>, samples: number[], timeDeltas: number[], startTime: number, endTime: number }} */
const profile = JSON.parse(readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** microseconds of samples per node id */
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (n) => {
  const url = n.callFrame.url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  if (url.includes('/apps/server/')) return 'ferry';
  return url ? 'other' : '(native/vm)';
};
const label = (n) => {
  const { functionName, url, lineNumber } = n.callFrame;
  const short = url.replace(/^.*node_modules\//, '').replace(/^.*\/apps\/server\//, '');
  return `${functionName || '(anonymous)'} ${short ? `${short}:${lineNumber + 1}` : ''}`.trim();
};

const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1e6).toFixed(2).padStart(6)} s`;

const bySelf = new Map();
const byPkg = new Map();
for (const [id, us] of self) {
  const n = byId.get(id);
  const key = label(n);
  bySelf.set(key, (bySelf.get(key) ?? 0) + us);
  byPkg.set(where(n), (byPkg.get(where(n)) ?? 0) + us);
}

console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`);
console.log('\nself time by package:');
for (const [k, us] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${k}`);
console.log('\nself time by function:');
for (const [k, us] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`  ${pct(us)}  ${k}`);

if (filter) {
  // inclusive time: a sample counts once for every distinct matching function on its stack
  const re = new RegExp(filter);
  const inclusive = new Map();
  for (const [id, us] of self) {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const key = label(byId.get(cur));
      if (re.test(key) && !seen.has(key)) {
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + us);
      }
    }
  }
  console.log(`\ninclusive time of functions matching /${filter}/:`);
  for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${pct(us)}  ${k}`);
}
