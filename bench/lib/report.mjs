// The final table (markdown) and the JSON results file.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fmtMB, fmtMBps, fmtMs } from './util.mjs';

/** @typedef {import('../sections/index.mjs').Row} Row */

/** @param {number | string | null} value @param {Row['unit']} unit */
function formatValue(value, unit) {
  if (typeof value === 'string') return value;
  if (value === null || !Number.isFinite(value)) return '—';
  switch (unit) {
    case 'MB/s':
      return fmtMBps(value);
    case 'MB':
      return fmtMB(value);
    case 'ms':
      return fmtMs(value);
    case 'req/s':
      return `${value.toFixed(0)} req/s`;
    case 'KB':
      return `${(value / 1000).toFixed(1)} KB`;
    case 'score':
    case 'count':
      return value.toFixed(0);
    default:
      return String(value);
  }
}

/** @param {Row} row */
function ratioOf(row) {
  if (row.ratio === false || typeof row.baseline !== 'number' || typeof row.ferry !== 'number') return null;
  const r = row.ferry / row.baseline;
  return Number.isFinite(r) ? r : null;
}

/** @param {Row} row */
function targetOf(row) {
  const t = row.target;
  if (!t) return '';
  if (t.minRatio !== undefined) {
    const r = ratioOf(row);
    if (r === null) return `≥ ${t.minRatio.toFixed(2)}`;
    return `≥ ${t.minRatio.toFixed(2)} ${r >= t.minRatio ? 'ok' : 'LOW'}`;
  }
  if (t.maxFerry !== undefined) {
    const limit = `< ${formatValue(t.maxFerry, row.unit)}`;
    if (typeof row.ferry !== 'number' || !Number.isFinite(row.ferry)) return limit;
    return `${limit} ${row.ferry < t.maxFerry ? 'ok' : 'HIGH'}`;
  }
  if (t.atMost !== undefined) {
    const limit = `≤ ${formatValue(t.atMost, row.unit)}`;
    if (typeof row.ferry !== 'number' || !Number.isFinite(row.ferry)) return `${limit} —`;
    return `${limit} ${row.ferry <= t.atMost ? 'ok' : 'HIGH'}`;
  }
  if (t.atLeast !== undefined) {
    const limit = `≥ ${formatValue(t.atLeast, row.unit)}`;
    if (typeof row.ferry !== 'number' || !Number.isFinite(row.ferry)) return `${limit} —`;
    return `${limit} ${row.ferry >= t.atLeast ? 'ok' : 'LOW'}`;
  }
  return '';
}

/**
 * Renders rows as an aligned markdown table.
 * @param {Row[]} rows
 */
export function renderTable(rows) {
  const header = ['measure', 'baseline', 'ferry', 'ratio', 'target'];
  const body = rows.map((row) => {
    const r = ratioOf(row);
    return [
      row.measure,
      `${formatValue(row.baseline, row.unit)}${row.baselineNote ? ` ${row.baselineNote}` : ''}`,
      `${formatValue(row.ferry, row.unit)}${row.ferryNote ? ` ${row.ferryNote}` : ''}`,
      r === null ? '' : r.toFixed(2),
      targetOf(row),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const separator = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return [line(header), separator, ...body.map(line)].join('\n');
}

/**
 * @param {string} file
 * @param {unknown} data
 */
export async function writeJson(file, data) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
}

/** Rows as plain data for the JSON file, with the computed ratio. @param {Row[]} rows */
export function rowsForJson(rows) {
  return rows.map((row) => ({
    ...row,
    ratio: ratioOf(row),
    target: row.target ?? null,
    targetResult: targetOf(row),
  }));
}
