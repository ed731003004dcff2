import { lazy } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { preloadable } from './preloadable';

describe('preloadable', () => {
  it('loads once, and once arrived calls back within the same turn', async () => {
    const load = vi.fn(async () => ({ default: 'module' }));
    const get = preloadable(load);
    expect(await get()).toEqual({ default: 'module' });
    let seen: unknown = null;
    void get().then((m) => {
      seen = m;
    });
    expect(seen).toEqual({ default: 'module' });
    expect(load).toHaveBeenCalledTimes(1);
    // chains and awaits still work as with any promise
    expect(await get().then((m) => m.default.toUpperCase())).toBe('MODULE');
    await expect(Promise.all([get(), get()])).resolves.toHaveLength(2);
  });

  it('tries again after a failed load', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ default: 'later' });
    const get = preloadable(load as () => Promise<{ default: string }>);
    await expect(get()).rejects.toThrow('offline');
    expect(await get()).toEqual({ default: 'later' });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('lets React.lazy read an arrived module without waiting', async () => {
    const Part = () => null;
    const get = preloadable(async () => ({ default: Part }));
    await get();
    const Lazy = lazy(get) as unknown as { _init: (payload: unknown) => unknown; _payload: unknown };
    // React.lazy's initializer returns the component at once, instead of throwing a promise to wait for
    expect(Lazy._init(Lazy._payload)).toBe(Part);
  });
});
