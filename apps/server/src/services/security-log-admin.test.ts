import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './security-log-admin.service.js';

describe('security-log CSV cells', () => {
  it('quotes as RFC 4180 says and neutralises formulas', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const lead of ['=', '+', '-', '@', '\t', '\r'])
      expect(
        csvCell(`${lead}SUM(A1)`).startsWith(`'${lead}`) || csvCell(`${lead}SUM(A1)`).startsWith(`"'${lead}`),
      ).toBe(true);
    expect(csvCell('=1+1,2')).toBe(`"'=1+1,2"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes one CRLF-ended line per entry, details as JSON', () => {
    expect(
      csvLine({
        id: 1,
        at: '2026-01-01T00:00:00.000Z',
        actor: 'ann@example.com',
        actorUserId: 'u1',
        action: 'sign-in',
        ip: '::1',
        userAgent: 'curl/8',
        target: null,
        details: { method: 'password' },
      }),
    ).toBe('2026-01-01T00:00:00.000Z,ann@example.com,sign-in,::1,curl/8,,"{""method"":""password""}"\r\n');
  });
});
