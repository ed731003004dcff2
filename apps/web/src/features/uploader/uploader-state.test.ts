import { PLAN_LIMITS } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import type { SelectedFile } from './selection';
import {
  buildCreateRequest,
  createUploaderReducer,
  formProblems,
  hasProblems,
  initialUploaderState,
  type UploaderState,
} from './uploader-state';

const LIMITS = PLAN_LIMITS.NONE;

function selected(name: string, size = 5, relativePath: string | null = null): SelectedFile {
  return { key: `${name}-${size}`, file: new File(['x'.repeat(size)], name), name, relativePath, size };
}

describe('uploader reducer', () => {
  const reducer = createUploaderReducer(LIMITS, { name: 'From template', message: 'Template message' });
  const start = initialUploaderState(
    LIMITS,
    { email: 'me@example.com', name: 'Me' },
    { name: 'From template' },
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
      'en',
      'proof-token',
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
      'en',
      'proof-token',
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
      'fr',
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
