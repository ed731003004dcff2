import { EMPTY_TEMPLATE, type TransferTemplate } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import {
  parseRecipients,
  type SettingsDraft,
  settingsUpdate,
  type TemplateCaps,
  type TemplateDraft,
  templateDraftOf,
  templateOf,
  templateProblems,
} from './settings-form-state';

const FREE: TemplateCaps = { validityDays: 7, recipients: 10, messageLength: 500 };
const PREMIUM: TemplateCaps = { validityDays: 365, recipients: 50, messageLength: 1000 };

function draft(overrides: Partial<TemplateDraft> = {}): TemplateDraft {
  return {
    name: '',
    message: '',
    recipients: '',
    password: '',
    defaultAvailability: '',
    s2AsDefault: false,
    ...overrides,
  };
}

describe('templateDraftOf', () => {
  it('shows a saved template as text', () => {
    const template: TransferTemplate = {
      name: 'Photos',
      message: 'Hi',
      recipients: ['a@example.com', 'b@example.com'],
      password: 'pw',
      defaultAvailability: 5,
      s2AsDefault: true,
    };
    expect(templateDraftOf(template, FREE)).toEqual({
      draft: {
        name: 'Photos',
        message: 'Hi',
        recipients: 'a@example.com, b@example.com',
        password: 'pw',
        defaultAvailability: '5',
        s2AsDefault: true,
      },
      capped: false,
    });
    expect(templateDraftOf(EMPTY_TEMPLATE, FREE)).toEqual({ draft: draft(), capped: false });
  });

  it('caps a default availability beyond the plan’s validity (spec §5), and says so', () => {
    const result = templateDraftOf({ ...EMPTY_TEMPLATE, defaultAvailability: 30 }, FREE);
    expect(result.draft.defaultAvailability).toBe('7');
    expect(result.capped).toBe(true);
    expect(templateDraftOf({ ...EMPTY_TEMPLATE, defaultAvailability: 30 }, PREMIUM).capped).toBe(false);
  });
});

describe('parseRecipients', () => {
  it('splits on commas, semicolons, spaces and lines, drops duplicates whatever their case', () => {
    expect(parseRecipients('a@example.com; B@example.com\nb@example.com,, nope  c@example.com')).toEqual({
      valid: ['a@example.com', 'B@example.com', 'c@example.com'],
      invalid: ['nope'],
    });
  });
});

describe('templateProblems', () => {
  it('accepts an empty template and one within the plan', () => {
    expect(templateProblems(draft(), FREE)).toEqual({});
    expect(templateProblems(draft({ defaultAvailability: '7', recipients: 'a@example.com' }), FREE)).toEqual(
      {},
    );
  });

  it('refuses a default availability beyond the plan’s validity limit', () => {
    expect(templateProblems(draft({ defaultAvailability: '8' }), FREE)).toEqual({
      defaultAvailability: { key: 'account:settings.error_days_cap', values: { max: 7 } },
    });
    expect(templateProblems(draft({ defaultAvailability: '8' }), PREMIUM)).toEqual({});
  });

  it.each(['0', '-1', '2.5', 'abc'])('refuses %s days', (days) => {
    expect(templateProblems(draft({ defaultAvailability: days }), PREMIUM).defaultAvailability?.key).toBe(
      'account:settings.error_days_invalid',
    );
  });

  it('refuses what is not an address, and more recipients than the plan allows', () => {
    expect(templateProblems(draft({ recipients: 'a@example.com, oops' }), FREE).recipients).toEqual({
      key: 'account:settings.error_recipients_invalid',
      values: { list: 'oops' },
    });
    const eleven = Array.from({ length: 11 }, (_, i) => `r${i}@example.com`).join(', ');
    expect(templateProblems(draft({ recipients: eleven }), FREE).recipients).toEqual({
      key: 'account:settings.error_recipients_limit',
      values: { max: 10 },
    });
    expect(templateProblems(draft({ recipients: eleven }), PREMIUM).recipients).toBeUndefined();
  });

  it('refuses a message longer than the plan’s, and a name or password longer than a template holds', () => {
    const problems = templateProblems(
      draft({ message: 'x'.repeat(501), name: 'n'.repeat(256), password: 'p'.repeat(257) }),
      FREE,
    );
    expect(problems.message?.values).toEqual({ max: 500 });
    expect(problems.name?.values).toEqual({ max: 255 });
    expect(problems.password?.values).toEqual({ max: 256 });
    expect(templateProblems(draft({ message: 'x'.repeat(501) }), PREMIUM).message).toBeUndefined();
  });
});

describe('templateOf / settingsUpdate', () => {
  it('trims text, turns empty fields into null and days into a number', () => {
    expect(
      templateOf(
        draft({
          name: '  Q3 ',
          message: ' ',
          recipients: 'a@example.com a@example.com',
          password: ' p ',
          defaultAvailability: '14',
        }),
      ),
    ).toEqual({
      name: 'Q3',
      message: null,
      recipients: ['a@example.com'],
      password: ' p ',
      defaultAvailability: 14,
      s2AsDefault: false,
    });
  });

  it('sends the uploader template only when the user may change it', () => {
    const settings: SettingsDraft = {
      notifications: {
        transfer: {
          summary: false,
          expiryReminder: true,
          downloadConfirmation: true,
          downloadConfirmationS2: false,
        },
        receive: { expiryReminder: true, upload: false },
      },
      uploader: draft({ name: 'U' }),
      receiver: draft({ name: 'R' }),
    };
    const own = settingsUpdate(settings, true);
    expect(own.notificationSettings).toEqual(settings.notifications);
    expect(own.uploaderTemplate?.name).toBe('U');
    expect(own.receiverTemplate?.name).toBe('R');
    const member = settingsUpdate(settings, false);
    expect(member).not.toHaveProperty('uploaderTemplate');
    expect(member.receiverTemplate?.name).toBe('R');
  });
});
