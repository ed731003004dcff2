import { describe, expect, it } from 'vitest';
import { HOSTS_RECHECK, PURGE_SECURITY_LOG, SWEEP_UNFINISHED } from '../main.js';
import { MAINTENANCE_TICK } from '../services/notification.service.js';
import { WEBHOOKS_TICK } from '../services/webhook.service.js';
import { createTransfer } from '../test/flows.js';
import { query, startTestFerry } from '../test/harness.js';
import { AVAILABILITY_SWEEP, AVAILABILITY_SWEEP_CRON } from './availability-job.js';

describe('the scheduled sweep of abandoned uploads', () => {
  it('is scheduled hourly in the database, and a queued sweep job is worked by the server', async () => {
    const ferry = await startTestFerry({ env: { UNFINISHED_UPLOAD_TTL_HOURS: '1' } });
    try {
      const schedules = await query<{ name: string; cron: string }>(
        ferry,
        'SELECT name, cron FROM pgboss.schedule ORDER BY name',
      );
      // The daily recheck of custom domains' DNS proofs, the daily purge of old security-log entries, the hourly sweep, the minutely maintenance tick (expiry,
      // reminders, lost jobs), the availability windows' safety net and the minutely webhook deliveries.
      expect(schedules).toEqual([
        { name: HOSTS_RECHECK, cron: '23 4 * * *' },
        { name: PURGE_SECURITY_LOG, cron: '41 3 * * *' },
        { name: SWEEP_UNFINISHED, cron: '17 * * * *' },
        { name: MAINTENANCE_TICK, cron: '* * * * *' },
        { name: AVAILABILITY_SWEEP, cron: AVAILABILITY_SWEEP_CRON },
        { name: WEBHOOKS_TICK, cron: '* * * * *' },
      ]);

      const stale = await createTransfer(ferry.baseUrl, { files: [{ name: 'a.bin', size: 10 }] });
      await query(ferry, `UPDATE transfers SET created_at = now() - interval '2 hours' WHERE id = $1`, [
        stale.transferId,
      ]);
      const jobId = await ferry.jobs.send(SWEEP_UNFINISHED, {});
      expect(jobId).toBeTruthy();
      const deadline = Date.now() + 30_000;
      let state = '';
      while (Date.now() < deadline) {
        state = (await ferry.jobs.job(SWEEP_UNFINISHED, jobId!))?.state ?? '';
        if (state === 'completed' || state === 'failed') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(state).toBe('completed');
      expect(await query(ferry, 'SELECT id FROM transfers WHERE id = $1', [stale.transferId])).toEqual([]);
    } finally {
      await ferry.close();
    }
  });
});
