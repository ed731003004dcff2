import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestContext } from 'vitest';
import { REPO_ROOT } from './server.js';

/** Where screenshots and logs of failed tests go (git-ignored). */
export const RESULTS_DIR = path.join(REPO_ROOT, 'e2e', 'test-results');

function slug(text: string): string {
  return text
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 120);
}

/** The path prefix of a test's artifacts: `e2e/test-results/<file>-<test name>`. */
export async function artifactBase(context: TestContext): Promise<string> {
  await fs.mkdir(RESULTS_DIR, { recursive: true });
  const file = path.basename(context.task.file?.name ?? '').replace(/\.e2e\.test\.ts$/, '');
  return path.join(RESULTS_DIR, slug(`${file}-${context.task.name}`));
}

export function failed(context: TestContext): boolean {
  return context.task.result?.state === 'fail';
}

/** Saves a text artifact (server output, CLI output…) of a failed test. */
export async function saveArtifact(context: TestContext, suffix: string, text: string): Promise<void> {
  await fs.writeFile(`${await artifactBase(context)}-${suffix}`, text).catch(() => undefined);
}
