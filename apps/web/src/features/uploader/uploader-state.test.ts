import { PLAN_LIMITS } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import type { SelectedFile } from './selection';
import {
  type FormDefaults,
  formProblems,
  hasProblems,
  initialUploaderState,
  OPEN_FORM_SETTINGS,
  uploaderReducer as reducer,
  type UploaderState,
} from './uploader-state';

const LIMITS = PLAN_LIMITS.NONE;

function selected(name: string, size = 5, relativePath: string | null = null): SelectedFile {
  return { key: `${name}-${size}`, file: new File(['x'.repeat(size)], name), name, relativePath, size };
}

describe('uploader reducer', () => {
  const start = initialUploaderState(
    LIMITS,
    { email: 'me@example.com', name: 'Me' },
    { name: 'From template', message: 'Template message' },
  );

  it('starts at step 1 with the anonymous default expiry and the saved sender', () => {
    expect(start.step).toBe(1);
    expect(start.form.expiresInDays).toBe(7);
    expect(start.form.senderEmail).toBe('me@example.com');
    expect(start.form.name).toBe('From template');
  });

  it('does not go to the options without files', () => {
    expect(reducer(start, { type: 'goTo', step: 2 }).step).toBe(1);
    const withFiles = reducer(start, { type: 'setFiles', files: [selected('a.txt')] });
    expect(reducer(withFiles, { type: 'goTo', step: 2 }).step).toBe(2);
  });

  it('reset returns to step 1 and clears files, custom link and password, reapplying the template (§4)', () => {
    let state: UploaderState = reducer(start, {
      type: 'setFiles',
      files: [selected('a.txt'), selected('b.txt')],
    });
    state = reducer(state, { type: 'goTo', step: 4 });
    state = reducer(state, { type: 'setField', field: 'password', value: 'hunter2' });
    state = reducer(state, { type: 'setField', field: 'customLink', value: 'my-link' });
    state = reducer(state, { type: 'setField', field: 'name', value: 'Typed name' });
    state = reducer(state, { type: 'setField', field: 'expiresInDays', value: 2 });
    state = reducer(state, { type: 'setField', field: 'senderName', value: 'Someone' });

    const reset = reducer(state, { type: 'reset' });
    expect(reset.step).toBe(1);
    expect(reset.files).toEqual([]);
    expect(reset.form.password).toBe('');
    expect(reset.form.customLink).toBe('');
    expect(reset.form.name).toBe('From template');
    expect(reset.form.message).toBe('Template message');
    expect(reset.form.expiresInDays).toBe(7);
    // The sender's own identity is kept for anonymous senders (spec §3 local storage).
    expect(reset.form.senderEmail).toBe('me@example.com');
    expect(reset.form.senderName).toBe('Someone');
  });

  it('reset clears the recipients (and what was being typed) and reapplies the notification defaults (§4)', () => {
    let state: UploaderState = reducer(start, { type: 'setFiles', files: [selected('a.txt')] });
    state = reducer(state, {
      type: 'setRecipients',
      recipients: ['ann@example.com', 'bob@example.com'],
      draft: 'carl@',
    });
    state = reducer(state, { type: 'setField', field: 'downloadConfirmation', value: false });
    state = reducer(state, { type: 'setField', field: 'expiryReminder', value: false });
    state = reducer(state, { type: 'setField', field: 'downloadConfirmationS2', value: true });
    state = reducer(state, { type: 'setField', field: 'forceEmailWhenDownloadS2', value: true });
    expect(state.form.recipients).toEqual(['ann@example.com', 'bob@example.com']);
    expect(state.form.recipientsDraft).toBe('carl@');

    const reset = reducer(state, { type: 'reset' });
    expect(reset.form.recipients).toEqual([]);
    expect(reset.form.recipientsDraft).toBe('');
    expect(reset.form.downloadConfirmation).toBe(true);
    expect(reset.form.expiryReminder).toBe(true);
    expect(reset.form.downloadConfirmationS2).toBe(false);
    expect(reset.form.forceEmailWhenDownloadS2).toBe(false);
    expect(reset.form.senderEmail).toBe('me@example.com');
  });

  it('keeps the recipients when only the files or the step change', () => {
    let state = reducer(start, { type: 'setRecipients', recipients: ['ann@example.com'], draft: '' });
    state = reducer(state, { type: 'setFiles', files: [selected('a.txt')] });
    state = reducer(state, { type: 'goTo', step: 2 });
    state = reducer(state, { type: 'goTo', step: 1 });
    expect(state.form.recipients).toEqual(['ann@example.com']);
  });

  it('removing the last file goes back to step 1', () => {
    let state = reducer(start, { type: 'setFiles', files: [selected('a.txt')] });
    state = reducer(state, { type: 'goTo', step: 2 });
    expect(reducer(state, { type: 'setFiles', files: [] }).step).toBe(1);
  });
});

describe('formProblems', () => {
  const base = initialUploaderState(LIMITS, { email: '', name: '' }).form;

  it('accepts the defaults', () => {
    expect(hasProblems(formProblems(base, LIMITS))).toBe(false);
  });

  it('flags a message over the plan limit (500 for anonymous)', () => {
    expect(formProblems({ ...base, message: 'x'.repeat(500) }, LIMITS).messageTooLong).toBe(false);
    expect(formProblems({ ...base, message: 'x'.repeat(501) }, LIMITS).messageTooLong).toBe(true);
  });

  it('flags bad e-mail, download limit and expiry', () => {
    expect(formProblems({ ...base, senderEmail: 'nope' }, LIMITS).invalidEmail).toBe(true);
    expect(formProblems({ ...base, maxDownloads: '0' }, LIMITS).invalidMaxDownloads).toBe(true);
    expect(formProblems({ ...base, maxDownloads: '2.5' }, LIMITS).invalidMaxDownloads).toBe(true);
    expect(formProblems({ ...base, maxDownloads: '3' }, LIMITS).invalidMaxDownloads).toBe(false);
    expect(formProblems({ ...base, expiresInDays: 8 }, LIMITS).invalidExpiry).toBe(true);
  });
});

describe('formProblems of an e-mail transfer (S1)', () => {
  const base = initialUploaderState(LIMITS, { email: '', name: '' }).form;
  const ready = { ...base, recipients: ['ann@example.com'], senderEmail: 'me@example.com' };

  it('needs at least one recipient and the sender e-mail, only for S1', () => {
    expect(hasProblems(formProblems(ready, LIMITS, 'S1'))).toBe(false);
    expect(formProblems({ ...ready, recipients: [] }, LIMITS, 'S1').noRecipients).toBe(true);
    expect(formProblems({ ...ready, senderEmail: ' ' }, LIMITS, 'S1').senderEmailRequired).toBe(true);
    expect(hasProblems(formProblems(base, LIMITS, 'S2'))).toBe(false);
  });

  it('flags text left in the recipients field and more recipients than the plan allows (10)', () => {
    expect(formProblems({ ...ready, recipientsDraft: 'bob@' }, LIMITS, 'S1').recipientsDraftLeft).toBe(true);
    const ten = Array.from({ length: 10 }, (_, i) => `r${i}@example.com`);
    expect(formProblems({ ...ready, recipients: ten }, LIMITS, 'S1').tooManyRecipients).toBe(false);
    expect(
      formProblems({ ...ready, recipients: [...ten, 'x@example.com'] }, LIMITS, 'S1').tooManyRecipients,
    ).toBe(true);
  });

  it('needs the sender e-mail for a link only when download confirmations are on', () => {
    expect(formProblems({ ...base, downloadConfirmationS2: true }, LIMITS, 'S2').senderEmailRequired).toBe(
      true,
    );
    expect(formProblems({ ...base, forceEmailWhenDownloadS2: true }, LIMITS, 'S2').senderEmailRequired).toBe(
      false,
    );
  });
});

describe('templates and plan defaults (spec §4, §5)', () => {
  const PREMIUM = PLAN_LIMITS.PREMIUM;
  const template = {
    name: 'Weekly report',
    message: 'Here it is',
    recipients: ['ann@example.com'],
    password: 'tpl-secret',
    defaultAvailabilityDays: 60,
    notifications: { downloadConfirmation: false, expiryReminder: false, downloadConfirmationS2: true },
  };

  it('defaults the expiry to today + min(validity, 21) without a template', () => {
    expect(initialUploaderState(PREMIUM, { email: '', name: '' }).form.expiresInDays).toBe(21);
    expect(initialUploaderState(LIMITS, { email: '', name: '' }).form.expiresInDays).toBe(7);
  });

  it('caps the template availability at the validity limit, not at 21 days', () => {
    expect(initialUploaderState(PREMIUM, { email: '', name: '' }, template).form.expiresInDays).toBe(60);
    expect(initialUploaderState(LIMITS, { email: '', name: '' }, template).form.expiresInDays).toBe(7);
    const short = { defaultAvailabilityDays: 3 };
    expect(initialUploaderState(LIMITS, { email: '', name: '' }, short).form.expiresInDays).toBe(3);
  });

  it('fills name, message, recipients, password and the notification defaults from the template', () => {
    const { form } = initialUploaderState(PREMIUM, { email: '', name: '' }, template);
    expect(form).toMatchObject({
      name: 'Weekly report',
      message: 'Here it is',
      recipients: ['ann@example.com'],
      password: 'tpl-secret',
      downloadConfirmation: false,
      expiryReminder: false,
      downloadConfirmationS2: true,
      forceEmailWhenDownloadS2: false,
    });
  });

  it('reset reapplies the template after recipients and password were changed', () => {
    let state = initialUploaderState(PREMIUM, { email: 'me@example.com', name: '' }, template);
    state = reducer(state, { type: 'setRecipients', recipients: ['zoe@example.com'], draft: '' });
    state = reducer(state, { type: 'setField', field: 'password', value: 'other' });
    state = reducer(state, { type: 'setField', field: 'downloadConfirmation', value: true });
    state = reducer(state, { type: 'goTo', step: 4 });
    const reset = reducer(state, { type: 'reset' });
    expect(reset.step).toBe(1);
    expect(reset.form.recipients).toEqual(['ann@example.com']);
    expect(reset.form.password).toBe('tpl-secret');
    expect(reset.form.downloadConfirmation).toBe(false);
    expect(reset.form.expiresInDays).toBe(60);
  });

  it('prefill: a template that arrives later fills what the sender has not changed, and reset uses it', () => {
    let state = initialUploaderState(LIMITS, { email: '', name: '' });
    state = reducer(state, { type: 'setField', field: 'message', value: 'typed before it loaded' });
    const loaded: FormDefaults = { limits: PREMIUM, template };
    state = reducer(state, { type: 'prefill', defaults: loaded });
    expect(state.form.name).toBe('Weekly report');
    expect(state.form.message).toBe('typed before it loaded');
    expect(state.form.expiresInDays).toBe(60);
    expect(state.form.recipients).toEqual(['ann@example.com']);
    expect(reducer(state, { type: 'reset' }).form.message).toBe('Here it is');
    // The same defaults again change nothing.
    expect(reducer(state, { type: 'prefill', defaults: loaded })).toBe(state);
  });

  it('prefill back to the free plan (signed out) brings a longer expiry within 7 days', () => {
    let state = initialUploaderState(PREMIUM, { email: '', name: '' }, template);
    state = reducer(state, { type: 'setField', field: 'expiresInDays', value: 200 });
    state = reducer(state, { type: 'prefill', defaults: { limits: LIMITS, template: {} } });
    expect(state.form.expiresInDays).toBe(7);
    expect(state.form.name).toBe('');
    expect(state.form.password).toBe('');
    expect(state.form.downloadConfirmation).toBe(true);
  });
});

describe('formProblems with uploader settings', () => {
  const base = initialUploaderState(LIMITS, { email: '', name: '' }).form;
  const requiring = { ...OPEN_FORM_SETTINGS, requirePassword: true };

  it('needs a password only when the settings require one', () => {
    expect(formProblems(base, LIMITS, 'S2').passwordRequired).toBe(false);
    expect(formProblems(base, LIMITS, 'S2', requiring).passwordRequired).toBe(true);
    expect(formProblems({ ...base, password: 'x' }, LIMITS, 'S2', requiring).passwordRequired).toBe(false);
  });

  it('offers up to 365 days and 50 recipients on PREMIUM', () => {
    const ready = { ...base, recipients: ['a@example.com'], senderEmail: 'me@example.com' };
    const fifty = Array.from({ length: 50 }, (_, i) => `r${i}@example.com`);
    expect(formProblems({ ...ready, expiresInDays: 365 }, PLAN_LIMITS.PREMIUM, 'S1').invalidExpiry).toBe(
      false,
    );
    expect(formProblems({ ...ready, recipients: fifty }, PLAN_LIMITS.PREMIUM, 'S1').tooManyRecipients).toBe(
      false,
    );
    expect(formProblems({ ...ready, recipients: fifty }, LIMITS, 'S1').tooManyRecipients).toBe(true);
  });
});

describe('formProblems of the custom link and the opening date', () => {
  const form = initialUploaderState(LIMITS, { email: '', name: '' }).form;
  const now = new Date(2030, 0, 1, 12, 0);

  it('says why a custom link would be refused, and nothing for none or a good one', () => {
    expect(
      formProblems({ ...form, customLink: '' }, LIMITS, 'S2', OPEN_FORM_SETTINGS, now).customLink,
    ).toBeNull();
    expect(formProblems({ ...form, customLink: 'q3-report' }, LIMITS).customLink).toBeNull();
    expect(formProblems({ ...form, customLink: 'Q3' }, LIMITS).customLink).toBe('length');
    expect(formProblems({ ...form, customLink: 'Q3-Report' }, LIMITS).customLink).toBe('characters');
    expect(formProblems({ ...form, customLink: 'q3--report' }, LIMITS).customLink).toBe('hyphens');
  });

  it('refuses an opening that is not ahead', () => {
    const at = (availableFrom: string) =>
      formProblems({ ...form, availableFrom }, LIMITS, 'S2', OPEN_FORM_SETTINGS, now).availableFromPast;
    expect(at('')).toBe(false);
    expect(at('2030-01-01T13:00')).toBe(false);
    expect(at('2030-01-01T11:00')).toBe(true);
    expect(at('2030-02-30T10:00')).toBe(true);
  });

  it('clears both on reset (spec §4)', () => {
    const state = initialUploaderState(LIMITS, { email: '', name: '' });
    const typed = {
      ...state,
      form: { ...state.form, customLink: 'q3-report', availableFrom: '2030-01-02T10:00' },
    };
    const reset = reducer(typed, { type: 'reset' });
    expect([reset.form.customLink, reset.form.availableFrom]).toEqual(['', '']);
  });
});

describe('formProblems of the link preview', () => {
  const form = initialUploaderState(LIMITS, { email: '', name: '' }).form;
  const problems = (ogTitle: string, ogDescription: string, type: 'S1' | 'S2' = 'S2') => {
    const found = formProblems({ ...form, ogTitle, ogDescription }, LIMITS, type);
    return [found.ogTitle, found.ogDescription];
  };

  it('starts empty and accepts texts up to 120 and 300 characters, counted without surrounding spaces', () => {
    expect([form.ogTitle, form.ogDescription]).toEqual(['', '']);
    expect(problems('', '')).toEqual([null, null]);
    expect(problems(` ${'t'.repeat(120)} `, 'd'.repeat(300))).toEqual([null, null]);
    expect(hasProblems(formProblems({ ...form, ogTitle: 'Board pack' }, LIMITS))).toBe(false);
  });

  it('flags a text too long, and one with a line break or another control character', () => {
    expect(problems('t'.repeat(121), 'd'.repeat(301))).toEqual(['too_long', 'too_long']);
    expect(problems('Board\tpack', 'Two\nlines')).toEqual(['control_chars', 'control_chars']);
    expect(problems('invoice\u202Efdp.exe', 'ok')).toEqual(['control_chars', null]);
    expect(hasProblems(formProblems({ ...form, ogDescription: 'd'.repeat(301) }, LIMITS))).toBe(true);
  });

  it('says nothing for an e-mail transfer, which sends no link preview', () => {
    expect(problems('t'.repeat(121), 'Two\nlines', 'S1')).toEqual([null, null]);
  });

  it('clears both on reset (spec §4)', () => {
    const state = initialUploaderState(LIMITS, { email: '', name: '' });
    const typed = { ...state, form: { ...state.form, ogTitle: 'Board pack', ogDescription: 'Q3' } };
    const reset = reducer(typed, { type: 'reset' });
    expect([reset.form.ogTitle, reset.form.ogDescription]).toEqual(['', '']);
  });
});
