import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from './exit-codes.js';
import { optionsDigest } from './journal.js';
import { buildProgram } from './main.js';
import {
  checkEmailOptions,
  checkLinkPreviewOptions,
  collectEmails,
  emailAddress,
  emailRequestFields,
  environmentLanguage,
  languageTag,
  linkPreviewRequestFields,
  localTimeZone,
  sendOptionsDigest,
  verificationCode,
} from './send-options.js';
import { normalizeCode } from './verify.js';

/** The options `ferry send ARGS…` hands to runSend, parsed by the real program (the action is not run). */
function parseSend(args: string[]): Record<string, unknown> {
  let stderr = '';
  const program = buildProgram({
    stdout: { write: () => true },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    signal: new AbortController().signal,
    stdin: new PassThrough(),
  });
  const send = program.commands.find((c) => c.name() === 'send')!;
  send.action(() => undefined);
  try {
    program.parse(['node', 'ferry', 'send', 'a.txt', ...args]);
  } catch (error) {
    throw new Error(stderr || String(error));
  }
  return send.opts();
}

describe('ferry send e-mail options', () => {
  it('collects --to repeated and comma-separated, trimming spaces', () => {
    const opts = parseSend([
      '--to',
      'bob@example.com',
      '--to',
      'carol@example.com, dan@example.com,',
      '--from',
      'ann@example.com',
      '--sender-name',
      'Ann',
    ]);
    expect(opts.to).toEqual(['bob@example.com', 'carol@example.com', 'dan@example.com']);
    expect(opts.from).toBe('ann@example.com');
    expect(opts.senderName).toBe('Ann');
  });

  it('refuses an address that is not one, and a code that is not six digits', () => {
    expect(() => parseSend(['--to', 'bob@'])).toThrow('"bob@" is not an e-mail address.');
    expect(() => parseSend(['--from', 'ann'])).toThrow('"ann" is not an e-mail address.');
    expect(() => parseSend(['--verification-code', '12345'])).toThrow('expected the 6-digit code');
    expect(parseSend(['--verification-code', '123 456']).verificationCode).toBe('123456');
  });

  it('leaves notification flags unset unless given', () => {
    const plain = parseSend([]);
    expect(plain.notifyDownloads).toBeUndefined();
    expect(plain.reminder).toBe(true);
    expect(plain.summary).toBe(true);
    expect(plain.requireEmail).toBeUndefined();
    expect(parseSend(['--notify-downloads']).notifyDownloads).toBe(true);
    expect(parseSend(['--no-notify-downloads']).notifyDownloads).toBe(false);
    expect(parseSend(['--no-reminder', '--no-summary', '--require-email'])).toMatchObject({
      reminder: false,
      summary: false,
      requireEmail: true,
    });
  });

  it('maps the options onto the create request: S1 with --to, S2 without', () => {
    expect(
      emailRequestFields({
        to: ['bob@example.com'],
        from: 'ann@example.com',
        notifyDownloads: false,
        reminder: false,
        summary: true,
      }),
    ).toEqual({
      type: 'S1',
      recipients: ['bob@example.com'],
      senderEmail: 'ann@example.com',
      senderName: undefined,
      downloadConfirmation: false,
      expiryReminder: false,
      summary: undefined,
      forceEmailWhenDownloadS2: undefined,
    });
    expect(emailRequestFields({ requireEmail: true, reminder: true })).toMatchObject({
      type: 'S2',
      recipients: undefined,
      expiryReminder: undefined,
      forceEmailWhenDownloadS2: true,
    });
  });

  it('refuses combinations that cannot work, before uploading', () => {
    expect(() => checkEmailOptions({ to: ['b@x.io'] })).toThrow('--to needs --from');
    // Signed in, the server sends from the account's address.
    expect(() => checkEmailOptions({ to: ['b@x.io'] }, { signedIn: true })).not.toThrow();
    expect(() => checkEmailOptions({ to: ['b@x.io'], from: 'a@x.io', requireEmail: true })).toThrow(
      '--require-email is for link transfers',
    );
    expect(() => checkEmailOptions({ verificationCode: '123456', notifyDownloads: true })).toThrow(
      '--verification-code, --notify-downloads needs --from',
    );
    expect(() =>
      checkEmailOptions({ to: ['b@x.io'], from: 'a@x.io', verificationCode: '123456' }),
    ).not.toThrow();
    expect(() => checkEmailOptions({ requireEmail: true, notifyDownloads: false })).not.toThrow();
  });

  it('digests the options so that code flags do not count and an old link transfer still resumes', () => {
    const base = { name: 'N', password: 'p' };
    expect(sendOptionsDigest(base)).toBe(
      optionsDigest({
        name: 'N',
        message: undefined,
        password: 'p',
        maxDownloads: undefined,
        expiresInDays: undefined,
      }),
    );
    const s1 = { ...base, to: ['Bob@example.com'], from: 'ann@example.com' };
    expect(sendOptionsDigest({ ...s1, verificationCode: '123456', resendCode: true })).toBe(
      sendOptionsDigest(s1),
    );
    expect(sendOptionsDigest({ ...s1, to: ['bob@example.com'] })).toBe(sendOptionsDigest(s1));
    expect(sendOptionsDigest({ ...s1, to: ['carol@example.com'] })).not.toBe(sendOptionsDigest(s1));
    expect(sendOptionsDigest({ ...s1, reminder: false })).not.toBe(sendOptionsDigest(s1));
    expect(sendOptionsDigest({ ...s1, reminder: true })).toBe(sendOptionsDigest(s1));
    // A send started as one account (or anonymously) is not continued as another.
    expect(sendOptionsDigest({ ...s1, account: undefined })).toBe(sendOptionsDigest(s1));
    expect(sendOptionsDigest({ ...s1, account: 'u1' })).not.toBe(sendOptionsDigest(s1));
    expect(sendOptionsDigest({ ...s1, account: 'u1' })).not.toBe(sendOptionsDigest({ ...s1, account: 'u2' }));
  });

  it('parses single values', () => {
    expect(collectEmails('a@x.io', undefined)).toEqual(['a@x.io']);
    expect(() => collectEmails(' , ', undefined)).toThrow('expected an e-mail address');
    expect(emailAddress(' a@x.io ')).toBe('a@x.io');
    expect(verificationCode('123-456')).toBe('123456');
    expect(normalizeCode('12345a')).toBeNull();
  });
});

describe('ferry send --lang and the environment', () => {
  it('reads the language as POSIX tools do: LC_ALL, then LC_MESSAGES, then LANG', () => {
    expect(environmentLanguage({ LANG: 'fr_FR.UTF-8' })).toBe('fr-FR');
    expect(environmentLanguage({ LANG: 'fr_FR.UTF-8', LC_MESSAGES: 'de_DE' })).toBe('de-DE');
    expect(environmentLanguage({ LANG: 'fr_FR', LC_MESSAGES: 'de_DE', LC_ALL: 'it_IT@euro' })).toBe('it-IT');
    expect(environmentLanguage({ LANG: 'pt_BR.utf8' })).toBe('pt-BR');
  });

  it('says nothing for C, POSIX, nothing set, or something unreadable', () => {
    expect(environmentLanguage({})).toBeUndefined();
    expect(environmentLanguage({ LANG: 'C.UTF-8' })).toBeUndefined();
    expect(environmentLanguage({ LC_ALL: 'POSIX', LANG: 'fr_FR' })).toBeUndefined();
    expect(environmentLanguage({ LANG: '??' })).toBeUndefined();
  });

  it('takes a language tag and refuses anything else', () => {
    expect(languageTag('fr')).toBe('fr');
    expect(languageTag('pt_BR')).toBe('pt-BR');
    expect(() => languageTag('french please')).toThrow(/language tag/);
    expect(() => languageTag('')).toThrow(/language tag/);
  });

  it('knows the machine time zone, TZ included', () => {
    const zone = localTimeZone();
    expect(zone).toBeTruthy();
    expect(() => new Intl.DateTimeFormat('en', { timeZone: zone })).not.toThrow();
  });
});

describe('ferry send --og-title and --og-description', () => {
  it('reads both as given, with their help', () => {
    const opts = parseSend(['--og-title', 'Board pack', '--og-description', 'Minutes and figures']);
    expect([opts.ogTitle, opts.ogDescription]).toEqual(['Board pack', 'Minutes and figures']);
    let help = '';
    const program = buildProgram({
      stdout: { write: (s: string) => (help += s) },
      stderr: { write: () => true },
      env: {},
      signal: new AbortController().signal,
      stdin: new PassThrough(),
    });
    expect(() => program.parse(['node', 'ferry', 'send', '--help'])).toThrow();
    expect(help).toContain('--og-title <text>');
    expect(help).toContain('--og-description <text>');
    expect(help).toMatch(/at\s+most\s+120\s+characters/);
    expect(help).toMatch(/at\s+most\s+300\s+characters/);
  });

  it('maps them onto openGraph: trimmed, only what was given, nothing for empty texts', () => {
    expect(linkPreviewRequestFields({ ogTitle: ' Board pack ', ogDescription: 'Minutes' })).toEqual({
      openGraph: { title: 'Board pack', description: 'Minutes' },
    });
    expect(linkPreviewRequestFields({ ogDescription: 'Minutes' })).toEqual({
      openGraph: { description: 'Minutes' },
    });
    expect(linkPreviewRequestFields({ ogTitle: '  ', ogDescription: '' })).toEqual({});
    expect(linkPreviewRequestFields({})).toEqual({});
  });

  it('refuses what the server would refuse, or could not show, with the flag in the message', () => {
    const signedIn = { signedIn: true };
    expect(() => checkLinkPreviewOptions({ ogTitle: 'x'.repeat(120) }, signedIn)).not.toThrow();
    expect(() => checkLinkPreviewOptions({ ogTitle: 'x'.repeat(121) }, signedIn)).toThrow(
      '--og-title is too long: 121 characters, a link preview title has at most 120',
    );
    expect(() => checkLinkPreviewOptions({ ogDescription: 'a\tb' }, signedIn)).toThrow(
      '--og-description holds a line break or another control character',
    );
    expect(() => checkLinkPreviewOptions({ ogTitle: 'Hi', to: ['b@x.io'] }, signedIn)).toThrow(
      '--og-title is for link transfers',
    );
    expect(() => checkLinkPreviewOptions({ ogTitle: 'Hi', ogDescription: 'There' })).toThrow(
      '--og-title and --og-description need a paid plan',
    );
    // Empty texts are no choice: nothing to refuse.
    expect(() => checkLinkPreviewOptions({ ogTitle: '', ogDescription: ' ', to: ['b@x.io'] })).not.toThrow();
    // A CliError: `ferry` says its message on one line and exits 1, as for any other invalid option.
    const refused = (() => {
      try {
        checkLinkPreviewOptions({ ogTitle: 'x'.repeat(121) }, signedIn);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(CliError);
    expect((refused as CliError).exitCode).toBe(ExitCode.ERROR);
  });

  it('counts them in the digest only when given, so an older interrupted send still resumes', () => {
    const base = { name: 'N' };
    expect(sendOptionsDigest({ ...base, ogTitle: '', ogDescription: '  ' })).toBe(sendOptionsDigest(base));
    expect(sendOptionsDigest({ ...base, ogTitle: 'Board pack' })).not.toBe(sendOptionsDigest(base));
    expect(sendOptionsDigest({ ...base, ogTitle: ' Board pack ' })).toBe(
      sendOptionsDigest({ ...base, ogTitle: 'Board pack' }),
    );
    expect(sendOptionsDigest({ ...base, ogTitle: 'A' })).not.toBe(
      sendOptionsDigest({ ...base, ogDescription: 'A' }),
    );
  });
});
