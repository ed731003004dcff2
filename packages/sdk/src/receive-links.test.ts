import { describe, expect, it } from 'vitest';
import { parseReceiveLink, receiveTargetKey } from './receive-links.js';

describe('parseReceiveLink', () => {
  it('reads requests, personal links, inboxes, widgets and push links', () => {
    expect(parseReceiveLink('https://f.example/r/AbCdEf0123456789')).toEqual({
      server: 'https://f.example',
      target: { kind: 'request', requestId: 'AbCdEf0123456789' },
    });
    expect(parseReceiveLink('https://f.example/base/r/AbCdEf0123456789?userSecret=s3cr-t_')).toEqual({
      server: 'https://f.example/base',
      target: { kind: 'request', requestId: 'AbCdEf0123456789', userSecret: 's3cr-t_' },
    });
    expect(parseReceiveLink('http://localhost:8080/i/acme-docs/').target).toEqual({
      kind: 'inbox',
      slug: 'acme-docs',
    });
    expect(parseReceiveLink('https://f.example/widgets/AbCdEf0123456789').target).toEqual({
      kind: 'widget',
      widgetId: 'AbCdEf0123456789',
    });
    expect(parseReceiveLink('https://f.example/push?to=ann%40example.com').target).toEqual({
      kind: 'push',
      to: 'ann@example.com',
    });
  });

  it('refuses what is not an upload link, saying what is expected', () => {
    for (const bad of [
      'not a url',
      'ftp://f.example/r/AbCdEf0123456789',
      'https://f.example/dl/AbCdEf0123456789',
      'https://f.example/r/..',
      'https://f.example/push',
      'https://f.example/widgets/short',
    ])
      expect(() => parseReceiveLink(bad), bad).toThrow(/upload link/);
  });

  it('keys each point (and each personal link) apart', () => {
    const keys = [
      receiveTargetKey({ kind: 'request', requestId: 'AbCdEf0123456789' }),
      receiveTargetKey({ kind: 'request', requestId: 'AbCdEf0123456789', userSecret: 'x' }),
      receiveTargetKey({ kind: 'inbox', slug: 'acme' }),
      receiveTargetKey({ kind: 'push', to: 'Ann@Example.com' }),
    ];
    expect(new Set(keys).size).toBe(4);
    expect(receiveTargetKey({ kind: 'push', to: 'ann@example.com' })).toBe(keys[3]);
  });
});
