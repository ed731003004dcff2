import { describe, expect, it } from 'vitest';
import { fileInfected, MAIL_LOCALES } from './index.js';

const input = {
  transferName: 'Quarterly report',
  transferFileCount: 3,
  fileName: 'tools/setup.exe',
  signature: 'Eicar-Test-Signature',
  transferUrl: 'https://ferry.example/dl/AbCdEf0123456789?userSecret=s3nd3r',
};

describe('fileInfected', () => {
  it('tells the sender which file was blocked and what was found, with the way to their transfer', async () => {
    const en = await fileInfected({ locale: 'en', productName: 'Ferry' }, input);
    expect(en.subject).toBe('A file of “Quarterly report” was blocked: a virus was found');
    expect(en.text).toContain('tools/setup.exe was blocked');
    expect(en.text).toContain('Eicar-Test-Signature');
    expect(en.text).toContain('the other files of the transfer stay available');
    expect(en.html).toContain(`href="${input.transferUrl}"`);
    const de = await fileInfected({ locale: 'de', productName: 'Ferry' }, { ...input, transferName: null });
    expect(de.subject).toBe('Eine von Ihnen gesendete Datei wurde gesperrt: Virus gefunden');
  });

  it('is written in every language of the catalogs', async () => {
    const english = (await fileInfected({ locale: 'en', productName: 'Ferry' }, input)).subject;
    for (const locale of MAIL_LOCALES) {
      if (locale === 'en') continue;
      const mail = await fileInfected({ locale, productName: 'Ferry' }, input);
      expect(mail.subject, locale).not.toBe(english);
      expect(mail.text, locale).toContain('tools/setup.exe');
    }
  });
});
