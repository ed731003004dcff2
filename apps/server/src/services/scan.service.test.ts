import { Readable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type {
  NewTransferEvent,
  ScanRepository,
  TransferFileRecord,
  TransferRecord,
  TransferRepository,
} from './ports.js';
import { type Scanner, ScanService, type ScanSettings } from './scan.service.js';

function fileOf(id: string, size: number, scanStatus: TransferFileRecord['scanStatus'] = 'not-scanned') {
  return {
    transferId: 'T',
    id,
    position: 0,
    name: `${id}.bin`,
    relativePath: null,
    size,
    sha256: null,
    crc32: 0,
    uploadId: null,
    blobKey: `blob-${id}`,
    uploadedAt: new Date(),
    createdAt: new Date(),
    scanStatus,
  } satisfies TransferFileRecord;
}

/** The scan repository and the transfers' files, in memory. */
function setup(files: TransferFileRecord[], scanner: Scanner, settings: ScanSettings) {
  const events: NewTransferEvent[] = [];
  const released: string[] = [];
  const infected: string[] = [];
  const sent: string[] = [];
  const repo: ScanRepository = {
    async start(_t, ids, event) {
      for (const f of files) if (ids.includes(f.id)) f.scanStatus = 'pending';
      events.push(event);
    },
    async record(_t, id, status, _signature, event) {
      const f = files.find((x) => x.id === id);
      const changed = f?.scanStatus === 'pending';
      if (f && changed) f.scanStatus = status;
      if (changed && event) events.push(event);
      return { changed, pendingLeft: files.filter((x) => x.scanStatus === 'pending').length };
    },
    async pending() {
      return files.filter((f) => f.scanStatus === 'pending').map((f) => ({ transferId: 'T', fileId: f.id }));
    },
    async scanningWithoutPending() {
      return [];
    },
    async abandonPending() {
      return [];
    },
  };
  const transfers = {
    file: async (_t: string, id: string) => files.find((f) => f.id === id) ?? null,
  } as unknown as TransferRepository;
  const service = new ScanService(
    repo,
    transfers,
    async () => Readable.from([Buffer.from('bytes')]),
    scanner,
    {
      send: async (_n, data) => {
        sent.push(data.fileId);
        return 'job';
      },
    },
    async (id) => void released.push(id),
    async (_t, file) => void infected.push(file.id),
    settings,
    pino({ level: 'silent' }),
  );
  return { service, events, released, infected, sent };
}

const transfer = { id: 'T', status: 'SCANNING' } as TransferRecord;
const block: ScanSettings = { policy: 'block', streamMaxBytes: 1000 };

describe('ScanService', () => {
  it('holds a finished transfer under block only while a file is to scan; never under background', async () => {
    const clean: Scanner = { scan: async () => ({ result: 'clean' }) };
    const { service } = setup([], clean, block);
    expect(await service.statusFor(transfer, [fileOf('a', 10)], 'uploaded')).toBe('SCANNING');
    expect(await service.statusFor(transfer, [fileOf('big', 5000)], 'uploaded')).toBeNull();
    expect(await service.statusFor(transfer, [fileOf('a', 10, 'clean')], 'recheck')).toBeNull();
    expect(await service.statusFor(transfer, [fileOf('a', 10, 'pending')], 'recheck')).toBe('SCANNING');
    const bg = setup([], clean, { ...block, policy: 'background' }).service;
    expect(await bg.statusFor(transfer, [fileOf('a', 10)], 'uploaded')).toBeNull();
  });

  it('queues the files to scan, keeps known verdicts, and leaves files over the limit not-scanned', async () => {
    const files = [fileOf('a', 10), fileOf('b', 10, 'infected'), fileOf('big', 5000)];
    const { service, sent, events } = setup(files, { scan: async () => ({ result: 'clean' }) }, block);
    await service.filesArrived(transfer, files);
    expect(sent).toEqual(['a']);
    expect(files.map((f) => f.scanStatus)).toEqual(['pending', 'infected', 'not-scanned']);
    expect(events).toEqual([{ type: 'SCAN_STARTED', actor: 'system', data: { files: 1 } }]);
  });

  it('fails the job while the scanner is unreachable: the file stays pending and nothing is released', async () => {
    let up = false;
    const scanner: Scanner = {
      scan: async () => {
        if (!up) throw new Error('connect ENOENT');
        return { result: 'infected', signature: 'Eicar-Test-Signature' };
      },
    };
    const files = [fileOf('a', 10, 'pending')];
    const { service, released, infected, events } = setup(files, scanner, block);
    await expect(service.scanFile({ transferId: 'T', fileId: 'a' })).rejects.toThrow(/ENOENT/);
    expect([files[0]!.scanStatus, released, infected]).toEqual(['pending', [], []]);
    up = true;
    expect(await service.scanFile({ transferId: 'T', fileId: 'a' })).toBe('infected');
    expect([files[0]!.scanStatus, released, infected]).toEqual(['infected', ['T'], ['a']]);
    expect(events.at(-1)).toMatchObject({ type: 'SCAN_DONE_INFECTED', data: { fileId: 'a' } });
    // A second run of the same job changes nothing and tells nobody again.
    expect(await service.scanFile({ transferId: 'T', fileId: 'a' })).toBe('skipped');
    expect(infected).toEqual(['a']);
  });
});
