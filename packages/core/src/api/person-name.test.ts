import { describe, expect, it } from 'vitest';
import { ContactMessageRequest, EnterpriseContactRequest, RegisterRequest } from './auth.js';
import { ReceiveRequestCreate, ReceiveUploadCreate } from './receive.js';
import { PersonName, TransferCreateRequest } from './transfer.js';
import { UserProfileUpdate } from './user.js';

// A name is one line shown to someone else: a line break in it forges mail headers and page lines, a
// bidirectional control makes it read in another order than it is written.
const BAD = [
  'Erin\nBCC: all@example.com',
  'Erin\r\nX',
  'Erin\tSmith',
  'Erin\u0085X',
  'Erin\u2028X',
  'Erin\u202EX',
  'Erin\u2067X',
];
const files = [{ name: 'a.txt', size: 1 }];

describe('person names refuse line breaks, control and bidirectional characters', () => {
  it.each([
    ['a transfer’s sender name', (v: string) => TransferCreateRequest.safeParse({ files, senderName: v })],
    ['a request’s sender name', (v: string) => ReceiveRequestCreate.safeParse({ senderName: v })],
    [
      'the uploader’s name on a receive page',
      (v: string) =>
        ReceiveUploadCreate.safeParse({ target: { kind: 'inbox', slug: 'acme' }, files, uploaderName: v }),
    ],
    [
      'the first name given at sign-up',
      (v: string) =>
        RegisterRequest.safeParse({ email: 'a@example.com', password: 'p'.repeat(12), firstname: v }),
    ],
    ['the first name in the profile', (v: string) => UserProfileUpdate.safeParse({ info: { firstname: v } })],
    [
      'the enterprise form’s name',
      (v: string) => EnterpriseContactRequest.safeParse({ name: v, email: 'a@example.com', company: 'Acme' }),
    ],
    [
      'the contact form’s name',
      (v: string) =>
        ContactMessageRequest.safeParse({ name: v, email: 'a@example.com', subject: 'Hello', message: 'Hi' }),
    ],
    [
      'the contact form’s subject (the mail’s subject)',
      (v: string) =>
        ContactMessageRequest.safeParse({ name: 'Erin', email: 'a@example.com', subject: v, message: 'Hi' }),
    ],
  ])('%s', (_, parse) => {
    for (const bad of BAD) expect(parse(bad).success, JSON.stringify(bad)).toBe(false);
    for (const good of ['Erin', 'Zoë O’Brien-Núñez', '李小龙', 'محمد', 'אבי\u200F'])
      expect(parse(good).success, good).toBe(true);
  });

  it('drops surrounding spaces and line breaks instead of refusing them', () => {
    expect(PersonName().parse('  Erin Smith \n')).toBe('Erin Smith');
  });
});
