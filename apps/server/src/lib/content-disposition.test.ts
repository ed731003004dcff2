import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition.js';

describe('contentDisposition', () => {
  it('always says attachment, with a safe ASCII fallback and the exact UTF-8 name per RFC 5987', () => {
    expect(contentDisposition("John's report (final)*.pdf")).toBe(
      `attachment; filename="John's report (final)*.pdf"; filename*=UTF-8''John%27s%20report%20%28final%29%2A.pdf`,
    );
    expect(contentDisposition('résumé "v2".txt')).toBe(
      `attachment; filename="r_sum_ _v2_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22.txt`,
    );
    expect(contentDisposition('a\r\nSet-Cookie: x=1')).not.toMatch(/[\r\n]/);
  });
});
