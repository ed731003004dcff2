import { describe, expect, it } from 'vitest';
import { effectivePanelState, panelStateOf } from './panel-state';

describe('panelStateOf (spec §2, §4)', () => {
  it('is closed on the uploader', () => {
    expect(panelStateOf('/')).toBe('closed');
  });

  it.each([
    '/dashboard',
    '/dashboard/settings',
    '/dashboard/address-book',
    '/account/profile',
    '/account/security/',
  ])('takes two thirds on %s, beside the uploader', (path) => {
    expect(panelStateOf(path)).toBe('two_third');
  });

  it.each([
    '/dashboard/transfers',
    '/dashboard/transfers/AbCd',
    '/dashboard/admin',
    '/dashboard/admin/users',
  ])('takes the whole width for the lists on %s', (path) => {
    expect(panelStateOf(path)).toBe('full');
  });

  it('is immersive on the discover pages', () => {
    expect(panelStateOf('/discover')).toBe('immersive');
    expect(panelStateOf('/discover/ferry-premium')).toBe('immersive');
    expect(panelStateOf('/discovery')).toBe('two_third');
  });
});

describe('effectivePanelState (spec §9: phones up to 768 px)', () => {
  it('makes two thirds full on a phone, and leaves every other state', () => {
    expect(effectivePanelState('two_third', true)).toBe('full');
    expect(effectivePanelState('two_third', false)).toBe('two_third');
    for (const state of ['closed', 'full', 'immersive'] as const) {
      expect(effectivePanelState(state, true)).toBe(state);
      expect(effectivePanelState(state, false)).toBe(state);
    }
  });
});
