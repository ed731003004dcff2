import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './device';

describe('describeUserAgent', () => {
  it('names common browsers and systems', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome', os: 'Linux', program: null });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toEqual({ browser: 'Edge', os: 'Windows', program: null });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari', os: 'iOS', program: null });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0',
      ),
    ).toEqual({ browser: 'Firefox', os: 'macOS', program: null });
  });

  it('counts headless Chrome as Chrome', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      ).browser,
    ).toBe('Chrome');
  });

  it('names programs, and knows when it does not know', () => {
    expect(describeUserAgent('node').program).toBe('Node.js');
    expect(describeUserAgent('curl/8.5.0').program).toBe('curl');
    expect(describeUserAgent(null)).toEqual({ browser: null, os: null, program: null });
    expect(describeUserAgent('SomethingElse/1.0')).toEqual({ browser: null, os: null, program: null });
  });
});
