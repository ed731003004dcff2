import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Email } from '../api/transfer.js';
import { EMAIL_MAX_LENGTH, isEmail } from './email.js';

describe('isEmail', () => {
  it('takes exactly what the API’s Email schema takes', () => {
    const cases = [
      'ann@example.com',
      '  ann@example.com ',
      'Ann.Lee+tag@mail.example.co.uk',
      'ann@example',
      'ann@@example.com',
      'ann example@x.com',
      '@example.com',
      'ann@',
      '',
      '   ',
      'ann@exa_mple.com',
      'ann@[192.168.0.1]',
      `${'a'.repeat(64)}@${'b'.repeat(63)}.com`,
      `${'a'.repeat(300)}@example.com`,
      `${'a'.repeat(EMAIL_MAX_LENGTH)}@x.io`,
      'élise@exemple.fr',
      'ann@xn--exmple-cua.com',
    ];
    for (const value of cases)
      expect(isEmail(value), JSON.stringify(value)).toBe(Email.safeParse(value).success);
  });

  it('agrees with the schema on generated addresses and near misses', () => {
    const address = fc.oneof(
      fc.emailAddress(),
      fc.emailAddress().map((a) => ` ${a}\n`),
      fc.emailAddress().map((a) => a.replace('@', '@@')),
      fc.emailAddress().map((a) => `${a}.`),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(address, (value) => isEmail(value) === Email.safeParse(value).success),
      { numRuns: 2000 },
    );
  });
});
