import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, createTransfer, randomFile, sendTransfer } from '../test/flows.js';
import { query, startTestFerry } from '../test/harness.js';
import { TusTestClient } from '../test/tus-client.js';

describe('abandoned uploads', () => {
  it('are removed with their partial bytes after UNFINISHED_UPLOAD_TTL_HOURS; finished transfers stay', async () => {
    const ferry = await startTestFerry({ env: { UNFINISHED_UPLOAD_TTL_HOURS: '1' } });
    try {
      const done = await sendTransfer(ferry.baseUrl, [{ name: 'kept.txt', data: randomFile(10) }]);
      const abandoned = await createTransfer(ferry.baseUrl, { files: [{ name: 'half.bin', size: 1000 }] });
      const tus = new TusTestClient(ferry.baseUrl, abandoned.uploadToken);
      const created = await tus.create(abandoned.transferId, abandoned.files[0]!.id, 1000);
      await tus.patch(created.location!, 0, randomFile(400));
      const partial = path.join(
        ferry.dataDir,
        'files',
        'uploads',
        `${abandoned.transferId}-${abandoned.files[0]!.id}`,
      );
      expect(existsSync(partial)).toBe(true);
      const recent = await createTransfer(ferry.baseUrl, { files: [{ name: 'new.bin', size: 5 }] });
      await query(ferry, `UPDATE transfers SET created_at = now() - interval '2 hours' WHERE id = ANY($1)`, [
        [done.transferId, abandoned.transferId],
      ]);

      expect(await ferry.cleanup.sweepUnfinished()).toBe(1);
      expect(existsSync(partial)).toBe(false);
      const state = await api(ferry.baseUrl, `/api/transfer/transfers/${abandoned.transferId}/upload-state`, {
        headers: { 'x-upload-token': abandoned.uploadToken },
      });
      expect(state.status).toBe(404);
      expect(
        (await api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${done.transferId}`)).status,
      ).toBe(200);
      const stillUploading = await api(
        ferry.baseUrl,
        `/api/transfer/transfers/${recent.transferId}/upload-state`,
        {
          headers: { 'x-upload-token': recent.uploadToken },
        },
      );
      expect(stillUploading.status).toBe(200);
    } finally {
      await ferry.close();
    }
  });
});
