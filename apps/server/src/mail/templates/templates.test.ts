import { describe, expect, it } from 'vitest';
import { catalogs, MAIL_LOCALES } from './i18n.js';
import {
  downloadConfirmation,
  expiryReminder,
  invoiceIssued,
  type MailFile,
  type RenderedMail,
  resolveMailLocale,
  senderVerificationCode,
  transferReceived,
  transferSummary,
} from './index.js';

const files: MailFile[] = [
  { name: 'a-very-long-holiday-photo-name-2025.jpg', size: 1_234_567 },
  { name: 'notes.txt', size: 999 },
  { name: 'budget.xlsx', size: 12_345 },
  { name: 'film.mov', size: 1_500_000_000 },
];
const totalSize = files.reduce((sum, f) => sum + f.size, 0);
const expiresAt = new Date('2026-03-15T13:05:00Z');
const link = 'https://ferry.example/dl/AbCdEf0123456789?u=r1&k=x';

const received = (locale: string, extra: Partial<Parameters<typeof transferReceived>[1]> = {}) =>
  transferReceived(
    { locale, productName: 'Ferry' },
    {
      senderName: 'Alice Martin',
      senderEmail: 'alice@example.com',
      transferName: 'Holiday photos',
      message: 'Hi!\nHere are the photos.',
      files,
      totalSize,
      expiresAt,
      downloadUrl: link,
      ...extra,
    },
  );

function expectSelfContained(mail: RenderedMail) {
  expect(mail.text.trim().length).toBeGreaterThan(0);
  expect(mail.subject).not.toMatch(/[\r\n]/);
  expect(mail.html).not.toMatch(/src="http/i);
  expect(mail.html).not.toMatch(/<img/i);
  expect(mail.html).not.toMatch(/url\(/i);
  expect(mail.html).not.toMatch(/<script/i);
}

/** BCP 47 tags of the spec's codes, for plural rules. */
const TAG: Record<string, string> = { jp: 'ja', kr: 'ko', ccs: 'cs', zh: 'zh', no: 'nb' };
const PLURAL = /_(zero|one|two|few|many|other)$/;
/**
 * Values that are rightly the same as English: punctuation, and words these languages share with English (reviewed
 * one by one). Anything else equal to English is an untranslated string.
 */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  '*': ['colon'],
  ccs: ['contact_email_label'],
  da: ['download', 'contact_email_label'],
  de: ['transfer_label', 'contact_name_label'],
  es: ['subscription_plan_label'],
  fr: ['message_label', 'contact_email_label'],
  it: ['files_summary_one', 'unnamed_one', 'contact_email_label'],
  nl: ['transfer_label', 'contact_email_label'],
  pl: ['transfer_label', 'contact_email_label', 'subscription_plan_label', 'purchase_receipt_tax_label'],
  pt: ['contact_email_label'],
  ro: ['transfer_label', 'contact_email_label', 'subscription_plan_label'],
  sv: ['subscription_plan_label'],
  tr: ['subscription_plan_label'],
};
const placeholders = (value: string) => [...value.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('mail catalogs', () => {
  const en = catalogs.en;
  const bases = (keys: string[]) => [...new Set(keys.map((k) => k.replace(PLURAL, '')))].sort();

  it('exist for every locale of spec §9', () => {
    expect(Object.keys(catalogs).sort()).toEqual([...MAIL_LOCALES].sort());
  });

  for (const locale of MAIL_LOCALES.filter((l) => l !== 'en'))
    it(`${locale}: English's keys, its plural forms, the same placeholders, every value translated`, () => {
      const catalog = catalogs[locale];
      expect(catalog, `no catalog for ${locale}`).toBeDefined();
      const own = catalog!;
      expect(bases(Object.keys(own))).toEqual(bases(Object.keys(en)));
      const categories = new Intl.PluralRules(TAG[locale] ?? locale)
        .resolvedOptions()
        .pluralCategories.filter((c) => !(c === 'many' && ['fr', 'it', 'es', 'pt'].includes(locale)));
      const problems: string[] = [];
      for (const key of Object.keys(en)) {
        const base = key.replace(PLURAL, '');
        if (PLURAL.test(key)) {
          for (const c of categories) if (!(`${base}_${c}` in own)) problems.push(`${base}_${c} missing`);
          continue;
        }
        const value = own[key];
        if (value === undefined) continue;
        if (value.trim() === '') problems.push(`${key} empty`);
        if (placeholders(value).join() !== placeholders(en[key]!).join())
          problems.push(`${key} placeholders`);
        const allowed = [...SAME_AS_ENGLISH['*']!, ...(SAME_AS_ENGLISH[locale] ?? [])];
        if (value === en[key] && !allowed.includes(key)) problems.push(`${key} is English`);
      }
      for (const [key, value] of Object.entries(own))
        if (PLURAL.test(key)) {
          const english = en[`${key.replace(PLURAL, '')}_other`] ?? '';
          for (const name of placeholders(value))
            if (name !== 'count' && !placeholders(english).includes(name))
              problems.push(`${key} has {{${name}}}`);
        }
      expect(problems).toEqual([]);
    });

  it("resolve a recipient's locale to its language, keeping their tag for dates", () => {
    expect(resolveMailLocale('fr-CA')).toEqual({ language: 'fr', intl: 'fr-CA' });
    expect(resolveMailLocale('FR')).toEqual({ language: 'fr', intl: 'fr' });
    expect(resolveMailLocale('en_GB')).toEqual({ language: 'en', intl: 'en-GB' });
    expect(resolveMailLocale('de')).toEqual({ language: 'de', intl: 'de' });
    // The spec's codes and their BCP 47 tags name the same language; dates take the tag.
    expect(resolveMailLocale('jp')).toEqual({ language: 'jp', intl: 'ja' });
    expect(resolveMailLocale('ja-JP')).toEqual({ language: 'jp', intl: 'ja-JP' });
    expect(resolveMailLocale('ccs')).toEqual({ language: 'ccs', intl: 'cs' });
    expect(resolveMailLocale('zh')).toEqual({ language: 'zh', intl: 'zh-Hans' });
    expect(resolveMailLocale('xx')).toEqual({ language: 'en', intl: 'en' });
    expect(resolveMailLocale(null)).toEqual({ language: 'en', intl: 'en' });
  });
});

describe('mail in every language', () => {
  it("is written in the recipient's language, tagged in BCP 47, right to left in Arabic and Persian", async () => {
    const de = await received('de');
    expect(de.html).toContain('<html dir="ltr" lang="de">');
    expect(de.subject).not.toBe((await received('en')).subject);
    const jp = await received('jp');
    expect(jp.html).toContain('<html dir="ltr" lang="ja">');
    for (const locale of ['ar', 'fa']) {
      const mail = await received(locale);
      expect(mail.html).toContain(`<html dir="rtl" lang="${locale}">`);
      // The link itself still reads left to right.
      expect(mail.html).toMatch(/dir="ltr"[^>]*>[^<]*<a[^>]*href="https:\/\/ferry\.example/);
    }
  });
});

describe('transferReceived', () => {
  it('tells an English recipient who sent what, until when, with the link as button and as text', async () => {
    const mail = await received('en');
    expect(mail.subject).toBe('Alice Martin sent you “Holiday photos”');
    expect(mail.text).toContain('Alice Martin (alice@example.com) sent you 4 files');
    expect(mail.text).toContain('Transfer: Holiday photos');
    expect(mail.text).toContain('Available until: March 15, 2026');
    expect(mail.text).toContain(`Download: ${link}`);
    expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    expect(mail.html).toContain('>Download<');
    expect(mail.html).toContain('<html dir="ltr" lang="en">');
    expectSelfContained(mail);
  });

  it('shows sizes in units of 1000 and names truncated as spec §2 says', async () => {
    const mail = await received('en');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('a-very-long-holida...jpg');
      expect(part).not.toContain('a-very-long-holiday-photo');
      expect(part).toContain('1.23 MB');
      expect(part).toContain('999 B');
      expect(part).toContain('12.3 kB');
      expect(part).toContain('1.50 GB');
      expect(part).toContain('4 files · 1.50 GB');
    }
    expect(mail.text).toContain('- notes.txt (999 B)');
  });

  it.each([
    ['fr', '4 fichiers · 1,50\u202fGo', ['1,23\u202fMo', '12,3\u202fko'], '- notes.txt (999\u202fo)'],
    // Canadian French, the recipient's own tag: a no-break space where France puts a narrow one.
    ['fr-CA', '4 fichiers · 1,50\u00a0Go', ['1,23\u00a0Mo', '12,3\u00a0ko'], '- notes.txt (999\u00a0o)'],
    ['de', '4 Dateien · 1,50\u00a0GB', ['1,23 MB', '12,3 kB'], '- notes.txt (999 Byte)'],
    ['jp', '4 件のファイル · 1.50 GB', ['1.23 MB', '12.3 KB'], '- notes.txt (999 byte)'],
    ['ar', '4 ملفات · 1.50 غ.ب', ['1.23 م.ب', '12.3 كيلوبايت'], '- notes.txt (999 بايت)'],
    ['en-US', '4 files · 1.50 GB', ['1.23 MB', '12.3 kB'], '- notes.txt (999 B)'],
  ])(
    'writes the sizes in the mail’s language (%s), with §2’s digits',
    async (locale, summary, sizes, line) => {
      const mail = await received(locale);
      for (const part of [mail.text, mail.html]) {
        expect(part).toContain(summary);
        for (const size of sizes) expect(part).toContain(size);
      }
      expect(mail.text).toContain(line);
    },
  );

  it('is written in French for a French recipient, dates included', async () => {
    const mail = await received('fr');
    expect(mail.subject).toBe('Alice Martin vous a envoyé « Holiday photos »');
    expect(mail.text).toContain('Alice Martin (alice@example.com) vous a envoyé 4 fichiers');
    expect(mail.text).toContain('Disponible jusqu’au : 15 mars 2026 à 13:05 UTC');
    expect(mail.text).toContain(`Télécharger : ${link}`);
    expect(mail.html).toContain('>Télécharger<');
    expect(mail.html).toContain('lang="fr"');
    expect(mail.text).toContain('4 fichiers · 1,50\u202fGo');
    expectSelfContained(mail);
  });

  it("shows the expiry in the recipient's time zone when known", async () => {
    const mail = await transferReceived(
      { locale: 'fr', productName: 'Ferry', timeZone: 'Europe/Paris' },
      {
        senderName: null,
        senderEmail: 'alice@example.com',
        transferName: null,
        message: null,
        files,
        totalSize,
        expiresAt,
        downloadUrl: link,
      },
    );
    expect(mail.text).toContain('15 mars 2026 à 14:05 UTC+1');
    expect(mail.subject).toBe('alice@example.com vous a envoyé des fichiers avec Ferry');
  });

  it('escapes what people wrote in the HTML part and keeps it readable in the text part', async () => {
    const mail = await received('en', {
      senderName: 'Eve <img src=x onerror=alert(1)>',
      transferName: 'Q3 <b>report</b>',
      message: 'Hello <script>alert("x")</script> & bye\nsecond line\n\nlast line',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; bye');
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).toContain('Eve &lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('Q3 &lt;b&gt;report&lt;/b&gt;');
    expect(mail.text).toContain('> Hello <script>alert("x")</script> & bye\n> second line\n>\n> last line');
    expect(mail.text).toContain('Eve <img src=x onerror=alert(1)>');
    // Line breaks of the message survive in HTML too.
    expect(mail.html).toMatch(/&amp; bye<br\/>second line<br\/><br\/>last line/);
    expectSelfContained(mail);
  });

  it('lists 20 files at most, then says how many more', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ name: `file-${i}.bin`, size: 1000 }));
    const mail = await received('en', { files: many, totalSize: 25_000 });
    expect(mail.text).toContain('- file-19.bin (1.00 kB)');
    expect(mail.text).not.toContain('file-20.bin');
    expect(mail.text).toContain('and 5 more files');
    expect(mail.html).toContain('and 5 more files');
    expect((await received('fr', { files: many, totalSize: 25_000 })).text).toContain('et 5 autres fichiers');
  });

  it('refuses a link that is not http(s)', async () => {
    await expect(received('en', { downloadUrl: 'javascript:alert(1)' })).rejects.toThrow(/http/);
  });
});

describe('senderVerificationCode', () => {
  it('shows the code and how long it is valid, in both languages', async () => {
    const en = await senderVerificationCode(
      { locale: 'en', productName: 'Ferry' },
      { code: '042917', validMinutes: 10 },
    );
    expect(en.subject).toBe('042917 is your Ferry verification code');
    expect(en.text).toContain('042917');
    expect(en.html).toContain('042917');
    expect(en.text).toContain('The code is valid for 10 minutes.');
    const one = await senderVerificationCode(
      { locale: 'en', productName: 'Ferry' },
      { code: '1', validMinutes: 1 },
    );
    expect(one.text).toContain('valid for 1 minute.');
    const fr = await senderVerificationCode(
      { locale: 'fr', productName: 'Ferry' },
      { code: '042917', validMinutes: 10 },
    );
    expect(fr.subject).toBe('042917 est votre code de vérification Ferry');
    expect(fr.text).toContain('Le code est valable 10 minutes.');
    expectSelfContained(en);
    expectSelfContained(fr);
  });
});

describe('downloadConfirmation', () => {
  const input = {
    transferName: 'Holiday photos',
    transferFileCount: 4,
    downloaderEmail: 'bob@example.com',
    files: files.slice(0, 2),
    downloadedAt: new Date('2026-03-10T09:30:00Z'),
    transferUrl: 'https://ferry.example/dashboard/transfers/AbCdEf0123456789',
    unsubscribeUrl: 'https://ferry.example/unsubscribe/tok',
  };

  it('tells the sender who downloaded which files and when, with a way to turn it off', async () => {
    const mail = await downloadConfirmation({ locale: 'en', productName: 'Ferry' }, input);
    expect(mail.subject).toBe('bob@example.com downloaded “Holiday photos”');
    expect(mail.text).toContain('Downloaded by: bob@example.com');
    expect(mail.text).toContain('Downloaded on: March 10, 2026 at 09:30 AM UTC');
    expect(mail.text).toContain('- a-very-long-holida...jpg (1.23 MB)');
    expect(mail.text).toContain('- notes.txt (999 B)');
    expect(mail.text).toContain('Turn off these e-mails: https://ferry.example/unsubscribe/tok');
    expect(mail.html).toContain('href="https://ferry.example/unsubscribe/tok"');
    expectSelfContained(mail);
  });

  it('says so when the downloader gave no e-mail', async () => {
    const mail = await downloadConfirmation(
      { locale: 'fr', productName: 'Ferry' },
      { ...input, downloaderEmail: null, transferName: null },
    );
    expect(mail.subject).toBe('Vos fichiers ont été téléchargés');
    expect(mail.text).toContain('2 fichiers de votre transfert ont été téléchargés');
    expect(mail.text).toContain('Téléchargé le : 10 mars 2026 à 09:30 UTC');
    expect(mail.text).not.toContain('Téléchargé par');
  });
});

describe('expiryReminder', () => {
  it('reminds a recipient before the files go, with their link', async () => {
    const mail = await expiryReminder(
      { locale: 'fr', productName: 'Ferry' },
      {
        senderName: 'Alice Martin',
        senderEmail: 'alice@example.com',
        transferName: null,
        message: null,
        files,
        totalSize,
        expiresAt,
        downloadUrl: link,
      },
    );
    expect(mail.subject).toBe('Rappel : les fichiers de Alice Martin expirent le 15 mars 2026');
    expect(mail.text).toContain('Vous ne les avez pas encore téléchargés.');
    expect(mail.text).toContain(link);
    expectSelfContained(mail);
  });
});

describe('transferSummary', () => {
  it('gives the sender the recipients, files, link and expiry', async () => {
    const mail = await transferSummary(
      { locale: 'en', productName: 'Ferry' },
      {
        transferName: 'Holiday photos',
        message: 'See you <soon>',
        recipients: ['bob@example.com', 'carol@example.com'],
        files,
        totalSize,
        expiresAt,
        downloadUrl: link,
      },
    );
    expect(mail.subject).toBe('Your transfer “Holiday photos” was sent');
    expect(mail.text).toContain('Your transfer was sent to 2 recipients');
    expect(mail.text).toContain('Recipients: bob@example.com, carol@example.com');
    expect(mail.text).toContain('Available until: March 15, 2026');
    expect(mail.text).toContain('> See you <soon>');
    expect(mail.html).toContain('See you &lt;soon&gt;');
    expect(mail.text).toContain(link);
    expectSelfContained(mail);
  });
});

describe('invoiceIssued', () => {
  const invoice = {
    number: 'F-2026-0042',
    total: 123_450,
    amountDue: 123_450,
    currency: 'EUR',
    dueAt: null,
    paidAt: null,
    bankDetails: null,
    pdfUrl: 'https://ferry.example/api/invoice/invoices/F-2026-0042/pdf',
    invoicesUrl: 'https://ferry.example/account/invoices',
  };

  it('writes the amount in the recipient’s locale, the spec’s codes read as BCP 47 (ccs as Czech)', async () => {
    const en = await invoiceIssued({ locale: 'en', productName: 'Ferry' }, invoice);
    expect(en.text).toContain('€1,234.50');
    const cs = await invoiceIssued({ locale: 'ccs', productName: 'Ferry' }, invoice);
    expect(cs.text).toContain('1\u00a0234,50\u00a0€');
    const frCa = await invoiceIssued({ locale: 'fr-CA', productName: 'Ferry' }, invoice);
    expect(frCa.text).toContain('1\u00a0234,50\u00a0€');
  });
});
