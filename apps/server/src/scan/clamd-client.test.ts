import { describe, expect, it } from 'vitest';
import { ClamdUnavailableError, parseInstreamReply } from './clamd-client.js';

describe("clamd's INSTREAM answer", () => {
  it('tells clean, infected (with the signature) and too large apart', () => {
    expect(parseInstreamReply('stream: OK\0')).toEqual({ result: 'clean' });
    expect(parseInstreamReply('stream: Eicar-Test-Signature FOUND\0')).toEqual({
      result: 'infected',
      signature: 'Eicar-Test-Signature',
    });
    expect(parseInstreamReply('INSTREAM size limit exceeded. ERROR\0')).toEqual({ result: 'too-large' });
  });

  it('never reads an error or an empty answer as clean', () => {
    for (const reply of ['', 'stream: Can not open file ERROR\0', 'UNKNOWN COMMAND\0'])
      expect(() => parseInstreamReply(reply)).toThrow(ClamdUnavailableError);
  });
});
