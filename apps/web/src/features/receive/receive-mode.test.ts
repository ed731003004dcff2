import { describe, expect, it } from 'vitest';
import { receiveModeOf } from './receive-mode';

describe('receive mode (spec §4)', () => {
  it('is on at /request-files and off at /, whatever came before', () => {
    expect(receiveModeOf('/request-files', '/')).toBe(true);
    expect(receiveModeOf('/Request-Files/', '/')).toBe(true);
    expect(receiveModeOf('/', '/request-files#S2')).toBe(false);
  });

  it('stays as it was on the other pages (the page the panel returns to)', () => {
    expect(receiveModeOf('/dashboard/settings', '/request-files#S1')).toBe(true);
    expect(receiveModeOf('/account/profile', '/#S2')).toBe(false);
    expect(receiveModeOf('/dashboard', '/')).toBe(false);
  });
});
