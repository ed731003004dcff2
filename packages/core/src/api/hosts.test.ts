import { describe, expect, it } from 'vitest';
import { ownHostGate } from '../rules/host-gate.js';
import { CustomDomain, subdomainProblem } from './hosts.js';

describe('subdomain names', () => {
  it.each([
    ['acme', null],
    ['a-1', null],
    ['x'.repeat(63), null],
    ['Acme', 'characters'],
    ['ünï', 'characters'],
    ['acme.co', 'characters'],
    ['a_b', 'characters'],
    ['ab', 'length'],
    ['x'.repeat(64), 'length'],
    ['-acme', 'hyphen'],
    ['acme-', 'hyphen'],
    ['xn--80ak6aa92e', 'punycode'],
    ['ab--cd', 'punycode'],
    ['www', 'reserved'],
    ['api', 'reserved'],
    ['ns1', 'reserved'],
    ['smtp', 'reserved'],
  ])('%s → %s', (name, problem) => {
    expect(subdomainProblem(name)).toBe(problem);
  });
});

describe('custom domains', () => {
  it('folds case and a trailing dot, and refuses what is not a host name', () => {
    expect(CustomDomain.parse('Files.ACME.com.')).toBe('files.acme.com');
    for (const bad of ['localhost', '10.0.0.1', 'a..b.com', '-a.example.com', 'files.acme.c0m', 'x y.com'])
      expect(CustomDomain.safeParse(bad).success, bad).toBe(false);
  });
});

describe('signed-out visitors on an own host (spec §2)', () => {
  it.each([
    ['/', 'sign_in'],
    ['/dashboard/transfers', 'sign_in'],
    ['/prices', 'sign_in'],
    ['/request-files', 'sign_in'],
    ['/push', 'limited'],
    ['/fr/push', 'limited'],
    ['/r/abc123', 'limited'],
    ['/i/acme-inbox', 'limited'],
    ['/d/notfound', 'limited'],
    ['/d/expired/', 'limited'],
    ['/dl/abcdef', 'open'],
    ['/dl/abcdef/f1', 'open'],
    ['/signin', 'open'],
    ['/de/reset-password', 'open'],
  ])('%s → %s', (path, gate) => {
    expect(ownHostGate(path)).toBe(gate);
  });
});
