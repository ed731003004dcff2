import { DEFAULT_UPLOADER_SETTINGS, PLAN_LIMITS, type ReceiveRequestView } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import {
  buildRequestCreate,
  defaultRequestDays,
  initialRequestState,
  parseExtensions,
  type RequestDefaults,
  requestFormReducer,
  requestProblems,
} from './request-form-state';

const defaults = (over: Partial<RequestDefaults> = {}): RequestDefaults => ({
  validityDays: 365,
  payingUser: true,
  template: {},
  notifications: { expiryReminder: true, upload: true },
  senderName: 'Ada',
  senderEmail: 'ada@example.com',
  ...over,
});

const created = { requestId: 'AbCdEfGhIjKlMnOp', linkMode: 'S2' } as ReceiveRequestView;

describe('receive form state (spec §3, §4, §5)', () => {
  it('opens for 21 days for paying users and 7 for others, a template default first, never past the validity', () => {
    expect(defaultRequestDays(defaults())).toBe(21);
    expect(defaultRequestDays(defaults({ payingUser: false, validityDays: 7 }))).toBe(7);
    expect(defaultRequestDays(defaults({ validityDays: 10 }))).toBe(10);
    expect(defaultRequestDays(defaults({ template: { defaultAvailabilityDays: 30 } }))).toBe(30);
    expect(defaultRequestDays(defaults({ validityDays: 7, template: { defaultAvailabilityDays: 30 } }))).toBe(
      7,
    );
  });

  it('fills the form from the receiver template and the receive notification settings', () => {
    const state = initialRequestState(
      defaults({
        template: { subject: 'Contract', message: 'Please sign', recipients: ['bob@example.com'] },
        notifications: { expiryReminder: false, upload: true },
      }),
    );
    expect(state.step).toBe(1);
    expect(state.form).toMatchObject({
      subject: 'Contract',
      message: 'Please sign',
      recipients: ['bob@example.com'],
      expiryReminder: false,
      uploadNotification: true,
      senderName: 'Ada',
      senderEmail: 'ada@example.com',
    });
  });

  it('resets to step 1 clearing recipients, custom id and password, with the defaults applied again', () => {
    let state = initialRequestState(defaults({ notifications: { expiryReminder: true, upload: true } }));
    state = requestFormReducer(state, { type: 'setRecipients', recipients: ['x@example.com'], draft: '' });
    state = requestFormReducer(state, { type: 'setField', field: 'customId', value: 'my-box' });
    state = requestFormReducer(state, { type: 'setField', field: 'password', value: 'secret' });
    state = requestFormReducer(state, { type: 'setField', field: 'uploadNotification', value: false });
    state = requestFormReducer(state, { type: 'created', request: created });
    expect(state.step).toBe(2);
    state = requestFormReducer(state, { type: 'reset' });
    expect(state.step).toBe(1);
    expect(state.created).toBeNull();
    expect(state.form).toMatchObject({
      recipients: [],
      customId: '',
      password: '',
      uploadNotification: true,
    });
  });

  it('takes new defaults where the requester changed nothing, and keeps what they typed', () => {
    let state = initialRequestState(defaults({ senderName: '', payingUser: false, validityDays: 7 }));
    state = requestFormReducer(state, { type: 'setField', field: 'subject', value: 'Mine' });
    state = requestFormReducer(state, {
      type: 'prefill',
      defaults: defaults({ template: { subject: 'Template', message: 'Hello' } }),
    });
    expect(state.form).toMatchObject({
      subject: 'Mine',
      message: 'Hello',
      senderName: 'Ada',
      expiresInDays: 21,
    });
  });

  it('says what is wrong: recipients, custom id, extensions (within the team list), message, password', () => {
    const state = initialRequestState(defaults());
    const limits = PLAN_LIMITS.NONE;
    const settings = { ...DEFAULT_UPLOADER_SETTINGS, receiveRequirePassword: true };
    const form = {
      ...state.form,
      customId: 'A',
      allowedExtensions: '.PDF, exe!, docx',
      message: 'x'.repeat(501),
    };
    expect(requestProblems(form, 'S1', limits, settings)).toEqual({
      noRecipients: true,
      tooManyRecipients: false,
      recipientsDraftLeft: false,
      messageTooLong: true,
      invalidSenderEmail: false,
      invalidCustomId: true,
      invalidExpiry: true,
      passwordRequired: true,
      invalidExtensions: ['exe!'],
    });
    const team = { ...settings, receiveAllowedExtensions: ['pdf', 'jpg'] };
    expect(requestProblems(form, 'S2', limits, team).invalidExtensions).toEqual(['exe!', 'docx']);
    expect(requestProblems({ ...form, customId: 'my-request' }, 'S2', limits, team).noRecipients).toBe(false);
  });

  it('normalises extensions as the server does', () => {
    expect(parseExtensions(' .PDF, docx;jpg  pdf ')).toEqual(['pdf', 'docx', 'jpg']);
    expect(parseExtensions('')).toEqual([]);
  });

  it('builds the request: recipients for S1 only, hidden options left to the server, colours when chosen', () => {
    const state = initialRequestState(defaults());
    const form = {
      ...state.form,
      recipients: ['bob@example.com'],
      subject: '  Photos ',
      customId: 'Wedding-2030',
      password: 'pw',
      allowedExtensions: 'jpg, PNG',
      customize: true,
    };
    const body = buildRequestCreate(form, 'S1', DEFAULT_UPLOADER_SETTINGS, {
      locale: 'fr',
      timeZone: 'Europe/Paris',
    });
    expect(body).toEqual({
      linkMode: 'S1',
      subject: 'Photos',
      message: undefined,
      recipients: ['bob@example.com'],
      senderName: 'Ada',
      senderEmail: 'ada@example.com',
      customId: 'wedding-2030',
      password: 'pw',
      expiresInDays: 21,
      uploadNotification: true,
      expiryReminder: true,
      allowedExtensions: ['jpg', 'png'],
      customization: { backgroundColor: '#4052b5', actionColor: '#3f51b5', startbtnColor: '#ff6208' },
      locale: 'fr',
      timeZone: 'Europe/Paris',
    });
    const locked = {
      ...DEFAULT_UPLOADER_SETTINGS,
      receivePasswordOpt: false,
      receiveNotificationOpt: false,
      receiveAvailabilityOpt: false,
      receiveAllowCustomization: false,
    };
    const s2 = buildRequestCreate(form, 'S2', locked, { locale: 'en' });
    expect(s2.recipients).toBeUndefined();
    expect(s2.password).toBeUndefined();
    expect(s2.expiresInDays).toBeUndefined();
    expect(s2.uploadNotification).toBeUndefined();
    expect(s2.customization).toBeUndefined();
  });
});
