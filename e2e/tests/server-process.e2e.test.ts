import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { FerryProcess, freePort, REPO_ROOT, SERVER_ENTRY } from '../support/server.js';

describe('the server process on its embedded default', () => {
  const started: FerryProcess[] = [];
  afterAll(async () => {
    for (const s of started) {
      await s.stop();
      await fs.rm(s.dataDir, { recursive: true, force: true });
    }
  });

  it('starts, survives SIGKILL, starts again on the same data dir and keeps its data', async () => {
    const first = await FerryProcess.start();
    started.push(first);
    const created = await fetch(`${first.url}/api/transfer/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ files: [{ name: 'a.txt', size: 0 }] }),
    }).then((r) => r.json());
    await first.kill('SIGKILL');

    const second = new FerryProcess(first.dataDir, await freePort());
    started.push(second);
    await second.start();
    const state = await fetch(`${second.url}/api/transfer/transfers/${created.transferId}/upload-state`, {
      headers: { 'x-upload-token': created.uploadToken },
    });
    expect(state.status).toBe(200);
    expect((await state.json()).transferId).toBe(created.transferId);
  });

  it('refuses a second process on a data dir that is in use, with a clear message', async () => {
    const owner = await FerryProcess.start();
    started.push(owner);
    const second = spawnSync(process.execPath, [SERVER_ENTRY], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: owner.dataDir, PORT: String(await freePort()) },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(second.status).toBe(1);
    expect(second.stdout + second.stderr).toContain('Another Ferry process is using');
    expect((await fetch(`${owner.url}/api/health`)).status).toBe(200);
  });

  it('exits with a list of every configuration problem', () => {
    const res = spawnSync(process.execPath, [SERVER_ENTRY], {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: 'eighty', PUBLIC_URL: 'not a url' },
      encoding: 'utf8',
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('PORT');
    expect(res.stderr).toContain('PUBLIC_URL');
  });

  it('shuts down cleanly on SIGTERM', async () => {
    const server = await FerryProcess.start();
    started.push(server);
    const child = server.child!;
    const code = new Promise((r) => child.once('exit', (c) => r(c)));
    child.kill('SIGTERM');
    expect(await code).toBe(0);
  });
});
