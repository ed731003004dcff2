import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './oidc.routes.js';

describe('sameOriginPath (where a sign-in lands)', () => {
  it('keeps a path on this site with its query and fragment', () => {
    expect(sameOriginPath('/dashboard/transfers?page=2#top')).toBe('/dashboard/transfers?page=2#top');
    expect(sameOriginPath('/a/../account')).toBe('/account');
  });

  it('falls back to / for anything that could leave the site', () => {
    for (const next of [
      undefined,
      '',
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '/\tevil',
      'javascript:alert(1)',
      'dashboard',
      `/${'a'.repeat(2001)}`,
      // Paths that resolve to a scheme-relative "//evil.example" once dot segments are removed.
      '/.//evil.example',
      '/././/evil.example',
      '/a/..//evil.example/x',
      '/%2e//evil.example',
    ])
      expect(sameOriginPath(next)).toBe('/');
  });
});
