import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from './local-datetime';

describe('datetime-local values', () => {
  const saved = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'America/St_Johns';
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it('read and write the local wall-clock time', () => {
    const at = fromLocalInput('2030-01-31T09:15');
    expect(at?.toISOString()).toBe('2030-01-31T12:45:00.000Z');
    expect(toLocalInput(at!)).toBe('2030-01-31T09:15');
  });

  it('say nothing for an empty or impossible value', () => {
    for (const bad of ['', '2030-02-30T10:00', 'tomorrow']) expect(fromLocalInput(bad), bad).toBeNull();
  });
});
