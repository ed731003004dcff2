import {
  DEFAULT_RECEIVE_THEME,
  type FieldMode,
  type NotificationSettings,
  type ReceiveLinkMode,
  type ReceiveTheme,
  type UploaderFields,
  type UploaderSettings,
} from '@ferry/core';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { LimitsService, SenderLimits } from './limits.service.js';
import { permissionsOf, settingsOf } from './user.service.js';

/** The owner of a receive point as the rules see them: their team's plan and the uploader settings they are held to. */
export interface ReceiveOwner {
  user: UserRecord;
  team: SenderLimits;
  /** A member's: the manager's (spec §4); otherwise the account's own. */
  settings: UploaderSettings;
  /** Spec §3 notificationSettings.receive of the owner. */
  notify: NotificationSettings['receive'];
}

export class ReceiveOwners {
  constructor(
    private readonly accounts: PgAccountRepository,
    private readonly limits: Pick<LimitsService, 'forSender'>,
  ) {}

  async of(user: UserRecord): Promise<ReceiveOwner> {
    const team = await this.limits.forSender(user.id);
    if (!team) throw new AppError('NOT_FOUND', 'No such account.');
    const own = settingsOf(user);
    return {
      user,
      team,
      settings: team.memberSettings ?? own.uploaderSettings,
      notify: own.notificationSettings.receive,
    };
  }

  async user(userId: string): Promise<UserRecord | null> {
    return this.accounts.user(userId);
  }

  async byId(userId: string): Promise<ReceiveOwner | null> {
    const user = await this.accounts.user(userId);
    return user ? this.of(user) : null;
  }

  /**
   * Whether `caller` may manage what `ownerId` received: the owner, their team's manager, or a member of that
   * team with TRANSFER_MANAGER (the dashboard's rule).
   */
  async mayManage(ownerId: string, caller: UserRecord): Promise<boolean> {
    if (ownerId === caller.id) return true;
    const owner = await this.accounts.user(ownerId);
    if (!owner) return false;
    const team = owner.managerId ?? owner.id;
    if (caller.id === team) return true;
    return caller.managerId === team && permissionsOf(caller).includes('TRANSFER_MANAGER');
  }
}

export function signedIn(auth: Authenticated | null): UserRecord {
  if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in to receive files.');
  return auth.user;
}

/** The setting that allows points of this link mode (spec §3 allowInboxS1 / allowInboxS2). */
export function linkModeSetting(mode: ReceiveLinkMode): 'allowInboxS1' | 'allowInboxS2' {
  return mode === 'S1' ? 'allowInboxS1' : 'allowInboxS2';
}

export function refuseSetting(
  setting: keyof UploaderSettings,
  message: string,
  status: 'FORBIDDEN' | 'VALIDATION_FAILED' = 'FORBIDDEN',
): never {
  throw new AppError(status, message, { details: { setting } });
}

/** The receive rules of the owner's uploader settings that apply to a point being created or changed. */
export function checkPointSettings(
  settings: UploaderSettings,
  point: {
    linkMode?: ReceiveLinkMode;
    /** true: set; false: none; undefined: unchanged. */
    password?: boolean;
    customization?: boolean;
    uploadNotificationOff?: boolean;
    allowedExtensions?: readonly string[];
    /** A chosen availability (a request's days open, an inbox's days files are kept) rather than the default. */
    availability?: boolean;
  },
): void {
  if (point.linkMode === 'S1' && !settings.allowInboxS1)
    refuseSetting('allowInboxS1', 'Receiving by e-mail (S1) is turned off for your account.');
  if (point.linkMode === 'S2' && !settings.allowInboxS2)
    refuseSetting('allowInboxS2', 'Receiving by link (S2) is turned off for your account.');
  if (point.password === false && settings.receiveRequirePassword)
    refuseSetting('receiveRequirePassword', 'A password is required to receive files.', 'VALIDATION_FAILED');
  if (point.password === true && !settings.receivePasswordOpt && !settings.receiveRequirePassword)
    refuseSetting('receivePasswordOpt', 'Passwords are not used to receive files in your team.');
  if (point.customization && !settings.receiveAllowCustomization)
    refuseSetting(
      'receiveAllowCustomization',
      'Customization of receive pages is turned off for your account.',
    );
  if (point.availability && !settings.receiveAvailabilityOpt)
    refuseSetting(
      'receiveAvailabilityOpt',
      'Choosing how long files can be received and kept is turned off for your account: the default applies.',
    );
  if (point.uploadNotificationOff && !settings.receiveNotificationOpt)
    refuseSetting('receiveNotificationOpt', 'Upload notifications cannot be turned off for your account.');
  const team = normaliseExtensions(settings.receiveAllowedExtensions);
  if (point.allowedExtensions && team.length > 0) {
    const outside = point.allowedExtensions.filter((e) => !team.includes(e));
    if (outside.length > 0)
      throw new AppError(
        'VALIDATION_FAILED',
        `Not among the extensions allowed for you: ${outside.join(', ')}.`,
        {
          details: { setting: 'receiveAllowedExtensions', allowedExtensions: team, refused: outside },
        },
      );
  }
}

/** "pdf", ".PDF" → "pdf"; empty entries dropped, duplicates once. */
export function normaliseExtensions(list: readonly string[]): string[] {
  return [...new Set(list.map((e) => e.trim().toLowerCase().replace(/^\.+/, '')).filter((e) => e !== ''))];
}

/**
 * A point's list held to the owner's (team's) receiveAllowedExtensions: either empty → the other; both set →
 * the common ones, or the team's when none are common (the manager's current rule wins). [] = every extension.
 */
export function effectiveExtensions(own: readonly string[], settings: UploaderSettings): string[] {
  const mine = normaliseExtensions(own);
  const team = normaliseExtensions(settings.receiveAllowedExtensions);
  if (mine.length === 0) return team;
  if (team.length === 0) return mine;
  const both = mine.filter((e) => team.includes(e));
  return both.length > 0 ? both : team;
}

export function storedTheme(
  input: Partial<ReceiveTheme> | undefined,
  current: Record<string, unknown> = {},
): ReceiveTheme {
  const pick = (k: keyof ReceiveTheme) => {
    const v = input?.[k] !== undefined ? input[k] : current[k];
    return typeof v === 'string' ? v : null;
  };
  return {
    backgroundColor: pick('backgroundColor'),
    actionColor: pick('actionColor'),
    startbtnColor: pick('startbtnColor'),
  };
}

/** Spec §3: the default colours for any that is missing. */
export function filledTheme(theme: ReceiveTheme): {
  backgroundColor: string;
  actionColor: string;
  startbtnColor: string;
} {
  return {
    backgroundColor: theme.backgroundColor ?? DEFAULT_RECEIVE_THEME.backgroundColor,
    actionColor: theme.actionColor ?? DEFAULT_RECEIVE_THEME.actionColor,
    startbtnColor: theme.startbtnColor ?? DEFAULT_RECEIVE_THEME.startbtnColor,
  };
}

const MODES: readonly FieldMode[] = ['hidden', 'optional', 'required'];

/** Stored form fields (JSON) read back with defaults; an S1 point always requires the uploader's e-mail. */
export function fieldsOf(
  stored: Record<string, unknown> | undefined,
  linkMode: ReceiveLinkMode,
): UploaderFields {
  const mode = (v: unknown): FieldMode => (MODES.includes(v as FieldMode) ? (v as FieldMode) : 'optional');
  const questions = Array.isArray(stored?.questions) ? (stored.questions as UploaderFields['questions']) : [];
  return {
    name: mode(stored?.name),
    email: linkMode === 'S1' ? 'required' : mode(stored?.email),
    message: mode(stored?.message),
    questions: questions.map((q) => ({ id: q.id, label: q.label, required: q.required === true })),
  };
}

/** Question ids must be unique in one form. */
export function checkQuestions(fields: UploaderFields | undefined): void {
  if (!fields) return;
  const seen = new Set<string>();
  for (const q of fields.questions) {
    if (seen.has(q.id))
      throw new AppError('VALIDATION_FAILED', `Two questions have the id "${q.id}".`, {
        details: { field: 'fields.questions' },
      });
    seen.add(q.id);
  }
}

export function displayName(user: Pick<UserRecord, 'firstname' | 'email'>): string {
  return user.firstname?.trim() || user.email;
}
