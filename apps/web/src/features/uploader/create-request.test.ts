import { PLAN_LIMITS } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import { browserTimeZone, buildCreateRequest } from './create-request';
import type { SelectedFile } from './selection';
import { initialUploaderState, OPEN_FORM_SETTINGS } from './uploader-state';

const LIMITS = PLAN_LIMITS.NONE;

function selected(name: string, size = 5, relativePath: string | null = null): SelectedFile {
  return { key: `${name}-${size}`, file: new File(['x'.repeat(size)], name), name, relativePath, size };
}

describe('buildCreateRequest', () => {
  it('sends S1 with its recipients, notifications and the saved proof of the sender address', () => {
    const state = initialUploaderState(LIMITS, { email: 'me@example.com', name: 'Me' });
    const request = buildCreateRequest(
      {
        ...state,
        files: [selected('a.txt', 3)],
        form: {
          ...state.form,
          recipients: ['ann@example.com', 'bob@example.com'],
          message: 'Hello',
          expiryReminder: false,
          // The S2 switches do not leak into an S1 transfer.
          forceEmailWhenDownloadS2: true,
        },
      },
      'S1',
      { locale: 'en', senderVerificationToken: 'proof-token' },
    );
    expect(request).toMatchObject({
      type: 'S1',
      recipients: ['ann@example.com', 'bob@example.com'],
      downloadConfirmation: true,
      expiryReminder: false,
      senderEmail: 'me@example.com',
      senderName: 'Me',
      senderVerificationToken: 'proof-token',
      message: 'Hello',
    });
    expect(request).not.toHaveProperty('forceEmailWhenDownloadS2');
  });

  it('never sends recipients for a link, nor a proof without a sender e-mail', () => {
    const state = initialUploaderState(LIMITS, { email: '', name: '' });
    const request = buildCreateRequest(
      {
        ...state,
        files: [selected('a.txt', 3)],
        form: { ...state.form, recipients: ['ann@example.com'], forceEmailWhenDownloadS2: true },
      },
      'S2',
      { locale: 'en', senderVerificationToken: 'proof-token' },
    );
    expect(request).not.toHaveProperty('recipients');
    expect(request).not.toHaveProperty('senderVerificationToken');
    expect(request.forceEmailWhenDownloadS2).toBe(true);
    expect(request.downloadConfirmation).toBe(false);
  });

  it('sends only what was set, with relative paths for folder files', () => {
    const state = initialUploaderState(LIMITS, { email: '', name: '' });
    const request = buildCreateRequest(
      {
        ...state,
        files: [selected('a.txt', 3), selected('b.txt', 4, 'dir/b.txt')],
        form: { ...state.form, name: '  Holiday ', maxDownloads: '5', password: 'pw', allowPreview: false },
      },
      'S2',
      { locale: 'fr' },
    );
    expect(request).toEqual({
      type: 'S2',
      name: 'Holiday',
      message: undefined,
      password: 'pw',
      expiresInDays: 7,
      maxDownloads: 5,
      allowPreview: false,
      downloadConfirmation: false,
      forceEmailWhenDownloadS2: false,
      senderEmail: undefined,
      senderName: undefined,
      locale: 'fr',
      files: [
        { name: 'a.txt', size: 3 },
        { name: 'b.txt', size: 4, relativePath: 'dir/b.txt' },
      ],
    });
  });
});

describe('buildCreateRequest: time zone and uploader settings', () => {
  const state = initialUploaderState(LIMITS, { email: '', name: '' }, { password: 'tpl' });
  const withOptions = {
    ...state,
    files: [selected('a.txt', 3)],
    form: { ...state.form, maxDownloads: '3', allowPreview: false, downloadConfirmationS2: true },
  };

  it('sends the browser time zone', () => {
    expect(browserTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    const request = buildCreateRequest(withOptions, 'S2', { locale: 'en', timeZone: 'Europe/Paris' });
    expect(request.timeZone).toBe('Europe/Paris');
    expect(buildCreateRequest(withOptions, 'S2', { locale: 'en' })).not.toHaveProperty('timeZone');
  });

  it('sends nothing from options the settings hide: password, download limit, preview, notifications', () => {
    const settings = {
      ...OPEN_FORM_SETTINGS,
      passwordOpt: false,
      downloadLimitOpt: false,
      filePreviewOpt: false,
      notificationOpt: false,
    };
    const request = buildCreateRequest(withOptions, 'S2', { locale: 'en', settings });
    expect(request.password).toBeUndefined();
    expect(request.maxDownloads).toBeUndefined();
    expect(request.allowPreview).toBe(true);
    expect(request.downloadConfirmation).toBe(false);
    const open = buildCreateRequest(withOptions, 'S2', { locale: 'en' });
    expect(open).toMatchObject({
      password: 'tpl',
      maxDownloads: 3,
      allowPreview: false,
      downloadConfirmation: true,
    });
  });

  it('turns on the downloader e-mail of a link when the settings require it', () => {
    const settings = { ...OPEN_FORM_SETTINGS, requireForceEmailWhenDownloadS2: true };
    expect(buildCreateRequest(withOptions, 'S2', { locale: 'en', settings }).forceEmailWhenDownloadS2).toBe(
      true,
    );
    expect(buildCreateRequest(withOptions, 'S2', { locale: 'en' }).forceEmailWhenDownloadS2).toBe(false);
  });
});

describe('buildCreateRequest: custom link and opening date', () => {
  const state = initialUploaderState(LIMITS, { email: '', name: '' });
  const form = { ...state.form, customLink: 'q3-report', availableFrom: '2030-04-01T09:00' };
  const withFiles = { ...state, files: [selected('a.txt', 3)], form };

  it('sends the custom link of a paying sender and the opening as an instant of the browser’s zone', () => {
    const request = buildCreateRequest(withFiles, 'S2', { locale: 'en', paying: true });
    expect(request.customLink).toBe('q3-report');
    expect(request.availableFrom).toBe(new Date(2030, 3, 1, 9, 0).toISOString());
  });

  it('never sends a custom link for a sender who is not paying', () => {
    expect(buildCreateRequest(withFiles, 'S2', { locale: 'en' }).customLink).toBeUndefined();
  });
});

describe('buildCreateRequest: link preview', () => {
  const state = initialUploaderState(LIMITS, { email: '', name: '' });
  const typed = (ogTitle: string, ogDescription: string) => ({
    ...state,
    files: [selected('a.txt', 3)],
    form: { ...state.form, ogTitle, ogDescription },
  });

  it('sends the title and description of a paying sender’s link, trimmed', () => {
    const request = buildCreateRequest(typed('  Board pack ', ' Q3 figures, final. '), 'S2', {
      locale: 'en',
      paying: true,
    });
    expect(request.openGraph).toEqual({ title: 'Board pack', description: 'Q3 figures, final.' });
  });

  it('sends only the fields the sender filled, and nothing when neither is', () => {
    const paying = { locale: 'en', paying: true };
    expect(buildCreateRequest(typed('Board pack', '  '), 'S2', paying).openGraph).toEqual({
      title: 'Board pack',
    });
    expect(buildCreateRequest(typed('', 'Only this'), 'S2', paying).openGraph).toEqual({
      description: 'Only this',
    });
    expect(buildCreateRequest(typed(' ', ''), 'S2', paying)).not.toHaveProperty('openGraph');
  });

  it('never sends one for a sender who is not paying, nor for an e-mail transfer', () => {
    expect(buildCreateRequest(typed('Board pack', 'Text'), 'S2', { locale: 'en' })).not.toHaveProperty(
      'openGraph',
    );
    const link = typed('Board pack', 'Text');
    const s1 = { ...link, form: { ...link.form, recipients: ['ann@example.com'] } };
    expect(buildCreateRequest(s1, 'S1', { locale: 'en', paying: true })).not.toHaveProperty('openGraph');
  });
});
