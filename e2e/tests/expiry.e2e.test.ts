import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { lines, runFerry } from '../support/cli.js';
import { waitFor, writeRandomFile } from '../support/files.js';
import { FerryProcess, tempDir } from '../support/server.js';

/** The embedded default's own database, reached the way the server reaches it (DATA_DIR/pg, its credentials). */
async function embeddedDatabaseUrl(dataDir: string): Promise<string> {
  const pid = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8');
  const port = Number(pid.split('\n')[3]);
  const { password } = JSON.parse(await fs.readFile(path.join(dataDir, 'pg-credentials.json'), 'utf8'));
  return `postgres://ferry:${encodeURIComponent(password)}@127.0.0.1:${port}/ferry`;
}

describe('expiry on the embedded default', () => {
  const scenarios = useBrowser();
  let server: FerryProcess;
  let db: pg.Client;
  let databaseUrl: string;

  beforeAll(async () => {
    server = await FerryProcess.start();
    databaseUrl = await embeddedDatabaseUrl(server.dataDir);
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await server?.stop();
  });

  it('the maintenance job deletes an expired transfer’s files and its page shows /d/expired', async () => {
    const work = await tempDir('expiry');
    const file = path.join(work, 'report.bin');
    await writeRandomFile(file, 300_000);
    const sent = await runFerry(['send', file, '--server', server.url], {
      FERRY_STATE_DIR: path.join(work, 'state'),
    });
    expect(sent.code, sent.stderr).toBe(0);
    const link = lines(sent.stdout).at(-1)!;
    const transferId = new URL(link).pathname.split('/').at(-1)!;
    const uploads = path.join(server.dataDir, 'files', 'uploads');
    const stored = async () => (await fs.readdir(uploads)).filter((f) => f.startsWith(transferId));
    expect((await stored()).length).toBeGreaterThan(0);

    // Time passes: the expiry date is behind us, and the minutely maintenance job comes round (sent now,
    // rather than waiting for the cron tick; the server's own worker runs it).
    await db.query("UPDATE transfers SET expires_at = now() - interval '1 minute' WHERE id = $1", [
      transferId,
    ]);
    const boss = new PgBoss({ connectionString: databaseUrl });
    await boss.start();
    try {
      await boss.send('maintenance.tick', {});
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
    await waitFor(
      async () => {
        const { rows } = await db.query(
          "SELECT 1 FROM transfer_events WHERE transfer_id = $1 AND type = 'EXPIRED'",
          [transferId],
        );
        return rows.length === 1;
      },
      { timeoutMs: 60_000, what: 'the EXPIRED event' },
    );

    expect(await stored()).toEqual([]);
    const { rows } = await db.query(
      'SELECT name, sha256, blob_key FROM transfer_files WHERE transfer_id = $1',
      [transferId],
    );
    expect(rows).toEqual([
      { name: 'report.bin', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), blob_key: null },
    ]);

    const page = await scenarios.newPage();
    await page.goto(link);
    await page.getByTestId('page-expired').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/d/expired');
  });
});
