import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isPrivateAddress } from './webhook-address.js';

describe('webhook addresses', () => {
  it('tells private, loopback, link-local and reserved addresses from public ones', () => {
    const blocked = [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a00:1',
      'not an address',
    ];
    const open = ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:5db8:d822'];
    expect(blocked.filter((a) => !isPrivateAddress(a))).toEqual([]);
    expect(open.filter((a) => isPrivateAddress(a))).toEqual([]);
  });

  it('checks every address a host resolves to, and the scheme', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await expect(
      checkWebhookUrl('https://mixed.example/hook', { allowPrivate: false, resolve }),
    ).rejects.toThrow(/loopback, private or link-local/);
    await expect(
      checkWebhookUrl('https://mixed.example/hook', { allowPrivate: true, resolve }),
    ).resolves.toHaveLength(2);
    const publicOnly = async () => [{ address: '93.184.216.34', family: 4 }];
    await expect(
      checkWebhookUrl('https://ok.example/hook', { allowPrivate: false, resolve: publicOnly }),
    ).resolves.toHaveLength(1);
    await expect(
      checkWebhookUrl('http://ok.example/hook', { allowPrivate: false, resolve: publicOnly }),
    ).rejects.toThrow(/https/);
    await expect(
      checkWebhookUrl('https://user:pw@ok.example/hook', { allowPrivate: false, resolve: publicOnly }),
    ).rejects.toThrow(/user name or password/);
    await expect(
      checkWebhookUrl('ftp://ok.example', { allowPrivate: true, resolve: publicOnly }),
    ).rejects.toThrow(/https/);
  });
});
