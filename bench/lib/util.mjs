// Small shared helpers: units, statistics, timing, formatting.
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';

export const MiB = 1024 * 1024;
/** MB as reported everywhere in the bench: 10^6 bytes. */
export const MB = 1e6;

export const now = () => performance.now();
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads an integer from the environment.
 * @param {string} name
 * @param {number} fallback
 * @param {number} [min]
 */
export function envInt(name, fallback, min = 1) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return value;
}

/** @param {number[]} values */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Percentile by nearest rank of an already sorted array.
 * @param {Float64Array | number[]} sorted
 * @param {number} p 0..100
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** @param {number} bytes @param {number} ms */
export const mbps = (bytes, ms) => bytes / MB / (ms / 1000);

/** "1 GiB", "256 MiB", "1.5 GiB": labels for byte sizes that are whole MiB. */
export function sizeLabel(bytes) {
  if (bytes >= 1024 * MiB) {
    const gib = bytes / (1024 * MiB);
    return `${Number.isInteger(gib) ? gib : gib.toFixed(2)} GiB`;
  }
  const mib = bytes / MiB;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}

/** @param {number} value */
export const fmtMBps = (value) => (Number.isFinite(value) ? `${value.toFixed(0)} MB/s` : 'n/a');
/** @param {number} bytes */
export const fmtMB = (bytes) => (Number.isFinite(bytes) ? `${(bytes / MB).toFixed(0)} MB` : 'n/a');
/** @param {number} ms */
export const fmtMs = (ms) =>
  Number.isFinite(ms) ? (ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(1)} ms`) : 'n/a';

/** Flushes dirty pages so one measurement's writeback does not slow down the next one (untimed). */
export async function syncDisks() {
  await promisify(execFile)('sync').catch(() => undefined);
}

/** Progress line on stdout, prefixed; the final table is printed after all of them, so it stays last. */
export function log(...args) {
  console.log('[bench]', ...args);
}
