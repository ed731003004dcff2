import { describe, expect, it } from 'vitest';
import { TRANSFER_STATUSES } from '../enums.js';
import { transferStatusLabel } from './status.js';

describe('transferStatusLabel (spec §2)', () => {
  it('shows MODERATING as pending', () => {
    expect(transferStatusLabel('MODERATING')).toBe('pending');
  });

  it('shows RETAINED as deleted', () => {
    expect(transferStatusLabel('RETAINED')).toBe('deleted');
  });

  it.each(TRANSFER_STATUSES.filter((s) => s !== 'MODERATING' && s !== 'RETAINED'))(
    'shows %s as its lowercase name',
    (status) => {
      expect(transferStatusLabel(status)).toBe(status.toLowerCase());
    },
  );

  it('maps every status of the spec, with the exact expected labels', () => {
    expect(Object.fromEntries(TRANSFER_STATUSES.map((s) => [s, transferStatusLabel(s)]))).toEqual({
      UPLOADING: 'uploading',
      CLONING: 'cloning',
      MODERATING: 'pending',
      ENABLED: 'enabled',
      PENDING: 'pending',
      DISABLED: 'disabled',
      DELETED: 'deleted',
      SCANNING: 'scanning',
      RETAINED: 'deleted',
    });
  });
});
