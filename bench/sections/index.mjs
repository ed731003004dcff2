// The bench's sections, in the order they run. A section measures the baseline server and/or Ferry and turns its
// results into table rows; add one by writing a module like throughput.mjs and listing it here.
import { dashboard } from './dashboard.mjs';
import { encryption } from './encryption.mjs';
import { latency } from './latency.mjs';
import { site } from './site.mjs';
import { throughput } from './throughput.mjs';
import { web } from './web.mjs';

/**
 * @typedef {object} BenchContext
 * @property {{ file: string, size: number, sha256: string, parts: import('../lib/testfile.mjs').Part[] }} testFile
 * @property {number} runs repetitions of each throughput measurement (the median is reported)
 * @property {string} tmpDir
 * @property {Record<string, any>} results each section keeps its raw results under its id (written to JSON)
 * @property {((name: string, dirName: string, env: Record<string, string>) => Promise<ServerInfo & { stop: () => Promise<number | null>, logFile: string }>) | undefined} startFerry
 *   starts another Ferry (own DATA_DIR `dirName` in the temp dir, `env` on top of the bench's); the section stops it
 */

/**
 * @typedef {object} ServerInfo
 * @property {string} baseUrl
 * @property {number} pid the server's node process
 * @property {string} [dataDir] Ferry's DATA_DIR (its outbox and embedded PostgreSQL)
 */

/**
 * @typedef {object} Row
 * @property {string} measure
 * @property {'MB/s' | 'MB' | 'KB' | 'ms' | 'req/s' | 'score' | 'text'} unit 'text': the values are preformatted
 *   strings; a number may also give way to a string when it could not be measured (an error)
 * @property {number | string | null} baseline
 * @property {number | string | null} ferry
 * @property {string} [baselineNote] shown after the baseline value, e.g. what it really is
 * @property {string} [ferryNote] shown after Ferry's value, e.g. which page it was measured on
 * @property {boolean} [ratio] false: no ratio column (references that are not like for like)
 * @property {{ minRatio?: number, maxFerry?: number, atMost?: number, atLeast?: number }} [target] checked and shown
 *   in the "target" column: ferry / baseline ≥ minRatio, ferry < maxFerry, ferry ≤ atMost, ferry ≥ atLeast
 */

/**
 * Both servers are up for the whole bench (so measurements can alternate between them and slow drift of a shared
 * machine hits both alike); either may be missing when BENCH_ONLY picks one side.
 * @typedef {{ baseline?: ServerInfo, ferry?: ServerInfo }} Servers
 */

/**
 * @typedef {object} Section
 * @property {string} id
 * @property {string} title
 * @property {(ctx: BenchContext, servers: Servers) => Promise<void>} run
 * @property {(ctx: BenchContext) => Row[]} rows
 */

/** @type {Section[]} */
export const sections = [throughput, encryption, latency, dashboard, site, web];
