import { describe, expect, it } from 'vitest';
import { addRecipients, endsWithSeparator, isEmail, splitAddresses } from './recipients';

describe('splitAddresses', () => {
  it('splits at commas, semicolons, spaces and new lines', () => {
    expect(
      splitAddresses('ann@example.com, bob@example.com;carl@example.com\nd@example.org  e@example.net'),
    ).toEqual(['ann@example.com', 'bob@example.com', 'carl@example.com', 'd@example.org', 'e@example.net']);
    expect(splitAddresses(' ,; \n')).toEqual([]);
  });

  it('takes the address out of "Name <address>" as mail programs copy it', () => {
    expect(
      splitAddresses('"Ann Lee" <ann@example.com>, Bob Smith <bob@example.com>; carl@example.com'),
    ).toEqual(['ann@example.com', 'bob@example.com', 'carl@example.com']);
  });
});

describe('isEmail', () => {
  it('accepts what the server accepts and refuses the rest', () => {
    expect(isEmail('ann@example.com')).toBe(true);
    expect(isEmail('  ann@example.com ')).toBe(true);
    for (const bad of [
      '',
      'ann',
      'ann@',
      '@example.com',
      'ann@example',
      'a b@example.com',
      'ann@@example.com',
    ])
      expect(isEmail(bad), bad).toBe(false);
  });
});

describe('addRecipients', () => {
  it('adds valid addresses in order and reports the invalid ones', () => {
    const result = addRecipients([], 'ann@example.com, nope, bob@example.com', 10);
    expect(result.recipients).toEqual(['ann@example.com', 'bob@example.com']);
    expect(result.invalid).toEqual(['nope']);
    expect(result.duplicates).toEqual([]);
  });

  it('ignores duplicates whatever their case, already listed or repeated in the text', () => {
    const result = addRecipients(['Ann@Example.com'], 'ann@example.com bob@example.com BOB@example.com', 10);
    expect(result.recipients).toEqual(['Ann@Example.com', 'bob@example.com']);
    expect(result.duplicates).toEqual(['ann@example.com', 'BOB@example.com']);
  });

  it('stops at the limit and reports what did not fit', () => {
    const nine = Array.from({ length: 9 }, (_, i) => `r${i}@example.com`);
    const result = addRecipients(nine, 'x@example.com y@example.com z@example.com', 10);
    expect(result.recipients).toHaveLength(10);
    expect(result.recipients.at(-1)).toBe('x@example.com');
    expect(result.overLimit).toEqual(['y@example.com', 'z@example.com']);
  });

  it('does not change the list it was given', () => {
    const current = ['ann@example.com'];
    addRecipients(current, 'bob@example.com', 10);
    expect(current).toEqual(['ann@example.com']);
  });
});

describe('endsWithSeparator', () => {
  it('is true right after a comma, semicolon, space or new line', () => {
    expect(endsWithSeparator('ann@example.com,')).toBe(true);
    expect(endsWithSeparator('ann@example.com ')).toBe(true);
    expect(endsWithSeparator('ann@example.com;')).toBe(true);
    expect(endsWithSeparator('ann@example.com')).toBe(false);
  });
});
