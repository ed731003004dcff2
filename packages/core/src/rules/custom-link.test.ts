import { describe, expect, it } from 'vitest';
import { CUSTOM_LINK_PROBLEM_MESSAGES, customLinkProblem, RESERVED_CUSTOM_LINKS } from './custom-link.js';

describe('customLinkProblem', () => {
  it.each(['q3-report', 'abc', 'a1-b2-c3', 'x'.repeat(64), 'abcdefgh1234567', 'abcdefgh-1234567'])(
    'accepts %s',
    (link) => {
      expect(customLinkProblem(link)).toBeNull();
    },
  );

  it.each([
    ['ab', 'length'],
    ['x'.repeat(65), 'length'],
    ['Q3-Report', 'characters'],
    ['q3-r\u0435port', 'characters'],
    ['\uff51\uff13-report', 'characters'],
    ['q3.report', 'characters'],
    ['../x', 'characters'],
    ['q3%2freport', 'characters'],
    ['-abc', 'hyphens'],
    ['abc-', 'hyphens'],
    ['a--b', 'hyphens'],
    ['admin', 'reserved'],
    ['dashboard', 'reserved'],
    ['abcdefgh12345678', 'looks_like_id'],
  ])('refuses %s (%s)', (link, problem) => {
    expect(customLinkProblem(link)).toBe(problem);
  });

  it('has a sentence for every problem and only valid reserved words', () => {
    for (const message of Object.values(CUSTOM_LINK_PROBLEM_MESSAGES)) expect(message).toMatch(/\.$/);
    for (const word of RESERVED_CUSTOM_LINKS) expect(/^[a-z0-9-]+$/.test(word), word).toBe(true);
  });
});
