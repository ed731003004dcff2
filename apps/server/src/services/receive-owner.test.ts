import { DEFAULT_UPLOADER_SETTINGS, type UploaderSettings } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import {
  checkPointSettings,
  effectiveExtensions,
  fieldsOf,
  filledTheme,
  storedTheme,
} from './receive-owner.js';

const settings = (over: Partial<UploaderSettings> = {}): UploaderSettings => ({
  ...DEFAULT_UPLOADER_SETTINGS,
  ...over,
});
const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? { code: error.code, setting: error.extra.details?.setting } : error;
  }
  return null;
};

describe('receive rules of the owner’s settings', () => {
  it('hold a point’s extensions to the team’s list (spec §3: case-insensitive, empty = all)', () => {
    expect(effectiveExtensions([], settings())).toEqual([]);
    expect(effectiveExtensions(['.PDF'], settings())).toEqual(['pdf']);
    expect(effectiveExtensions([], settings({ receiveAllowedExtensions: ['JPG', '.png'] }))).toEqual([
      'jpg',
      'png',
    ]);
    expect(
      effectiveExtensions(['pdf', 'png'], settings({ receiveAllowedExtensions: ['png', 'jpg'] })),
    ).toEqual(['png']);
    // Nothing in common (the manager changed the list since): the manager's list wins.
    expect(effectiveExtensions(['pdf'], settings({ receiveAllowedExtensions: ['jpg'] }))).toEqual(['jpg']);
  });

  it('refuse link modes, passwords, customization and silent points the settings do not allow', () => {
    expect(refusal(() => checkPointSettings(settings({ allowInboxS1: false }), { linkMode: 'S1' }))).toEqual({
      code: 'FORBIDDEN',
      setting: 'allowInboxS1',
    });
    expect(
      refusal(() => checkPointSettings(settings({ allowInboxS1: false }), { linkMode: 'S2' })),
    ).toBeNull();
    expect(
      refusal(() => checkPointSettings(settings({ receiveRequirePassword: true }), { password: false })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      setting: 'receiveRequirePassword',
    });
    expect(
      refusal(() => checkPointSettings(settings({ receivePasswordOpt: false }), { password: true })),
    ).toEqual({
      code: 'FORBIDDEN',
      setting: 'receivePasswordOpt',
    });
    expect(
      refusal(() =>
        checkPointSettings(settings({ receiveAllowCustomization: false }), { customization: true }),
      ),
    ).toMatchObject({ setting: 'receiveAllowCustomization' });
    expect(
      refusal(() =>
        checkPointSettings(settings({ receiveNotificationOpt: false }), { uploadNotificationOff: true }),
      ),
    ).toMatchObject({ setting: 'receiveNotificationOpt' });
    expect(
      refusal(() => checkPointSettings(settings({ receiveAvailabilityOpt: false }), { availability: true })),
    ).toEqual({ code: 'FORBIDDEN', setting: 'receiveAvailabilityOpt' });
    // The default availability is always allowed.
    expect(() =>
      checkPointSettings(settings({ receiveAvailabilityOpt: false }), { availability: false }),
    ).not.toThrow();
    expect(
      refusal(() =>
        checkPointSettings(settings({ receiveAllowedExtensions: ['pdf'] }), {
          allowedExtensions: ['pdf', 'exe'],
        }),
      ),
    ).toEqual({ code: 'VALIDATION_FAILED', setting: 'receiveAllowedExtensions' });
  });

  it('read form fields back with defaults; an S1 point always requires the e-mail', () => {
    expect(fieldsOf({}, 'S2')).toEqual({
      name: 'optional',
      email: 'optional',
      message: 'optional',
      questions: [],
    });
    expect(fieldsOf({ email: 'hidden', name: 'bogus' }, 'S1')).toMatchObject({
      name: 'optional',
      email: 'required',
    });
  });

  it('fill missing colours with the spec §3 defaults', () => {
    const theme = storedTheme({ actionColor: '#112233' });
    expect(theme).toEqual({ backgroundColor: null, actionColor: '#112233', startbtnColor: null });
    expect(filledTheme(theme)).toEqual({
      backgroundColor: '#4052B5',
      actionColor: '#112233',
      startbtnColor: '#FF6208',
    });
    expect(storedTheme({ actionColor: null }, { actionColor: '#112233', startbtnColor: '#000000' })).toEqual({
      backgroundColor: null,
      actionColor: null,
      startbtnColor: '#000000',
    });
  });
});
