import { describe, expect, it } from 'vitest';
import { dropBytes } from './batched-file-store.js';

describe('continuing a short write', () => {
  const buffers = () => [Buffer.from('abc'), Buffer.from('defg'), Buffer.from('h')];
  const text = (list: Buffer[]) => Buffer.concat(list).toString();

  it('drops whole buffers and part of the next, leaving the rest untouched', () => {
    for (let count = 0; count <= 8; count++)
      expect(text(dropBytes(buffers(), count))).toBe('abcdefgh'.slice(count));
    expect(dropBytes(buffers(), 3)).toHaveLength(2); // no empty buffer is kept
    expect(dropBytes(buffers(), 8)).toEqual([]);
  });

  it('leaves the buffers it was given as they were', () => {
    const list = buffers();
    dropBytes(list, 5);
    expect(text(list)).toBe('abcdefgh');
    expect(list).toHaveLength(3);
  });
});
