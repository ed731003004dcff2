import {
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS,
  DEFAULT_UPLOADER_SETTINGS,
  EMPTY_TEMPLATE,
  type NotificationSettings,
  PERMISSIONS,
  type Permission,
  type TeamMembership,
  UploaderSettings,
  type UserProfile,
  UserProfileUpdate,
} from '@ferry/core';
import type { Logger } from 'pino';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { SecurityLog } from './security-log.js';

type Stored = Partial<Omit<UserProfile, 'uid' | 'email' | 'info'>>;

/** Stored settings over the defaults: an account made before a setting existed reads its default. */
export function settingsOf(
  user: Pick<UserRecord, 'settings' | 'managerId'>,
): Omit<UserProfile, 'uid' | 'email' | 'info'> {
  const s = user.settings as Stored;
  return {
    notificationSettings: {
      transfer: { ...DEFAULT_NOTIFICATION_SETTINGS.transfer, ...s.notificationSettings?.transfer },
      receive: { ...DEFAULT_NOTIFICATION_SETTINGS.receive, ...s.notificationSettings?.receive },
    },
    lastNotificationsChecked: s.lastNotificationsChecked ?? null,
    addressBookSettings: { autoSave: true, ...s.addressBookSettings },
    uploaderTemplate: { ...EMPTY_TEMPLATE, ...s.uploaderTemplate },
    receiverTemplate: { ...EMPTY_TEMPLATE, ...s.receiverTemplate },
    uploaderSettings: {
      ...(user.managerId ? DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS : DEFAULT_UPLOADER_SETTINGS),
      ...s.uploaderSettings,
    },
  };
}

/** What a team's members may do: the settings its manager chose, over the team-member defaults (spec §3, §4). */
export function teamMemberUploaderSettings(manager: Pick<UserRecord, 'settings'>): UploaderSettings {
  return { ...DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS, ...(manager.settings as Stored).uploaderSettings };
}

/** The notification switches a new transfer of this account starts with (spec §3 notificationSettings.transfer). */
export function notificationDefaults(
  user: Pick<UserRecord, 'settings' | 'managerId'>,
): NotificationSettings['transfer'] {
  return settingsOf(user).notificationSettings.transfer;
}

/** A member's permissions: all three when none are stored (spec §6); a team's manager has all three. */
export function permissionsOf(user: Pick<UserRecord, 'managerId' | 'permissions'>): Permission[] {
  return !user.managerId || user.permissions.length === 0 ? [...PERMISSIONS] : user.permissions;
}

/** Spec §3 user profile and settings, readable by the account (and, for a team member, from their manager). */
export class UserService {
  constructor(
    private readonly accounts: PgAccountRepository,
    private readonly logger: Logger,
    /** Header a reverse proxy or CDN puts the client's country in (e.g. CF-IPCountry); none by default. */
    private readonly countryHeader: string | null,
    /** Where a team's policy-changed events go (none: not recorded, e.g. in unit tests). */
    private readonly securityLog: SecurityLog | null = null,
  ) {}

  async profile(auth: Authenticated | null, id: string): Promise<UserProfile> {
    return this.view(await this.readable(auth, id));
  }

  async update(auth: Authenticated | null, id: string, input: UserProfileUpdate): Promise<UserProfile> {
    const patch = UserProfileUpdate.parse(input);
    const user = await this.own(auth, id);
    const current = settingsOf(user);
    const next = {
      ...(user.settings as Stored),
      notificationSettings: {
        transfer: { ...current.notificationSettings.transfer, ...patch.notificationSettings?.transfer },
        receive: { ...current.notificationSettings.receive, ...patch.notificationSettings?.receive },
      },
      ...(patch.lastNotificationsChecked ? { lastNotificationsChecked: patch.lastNotificationsChecked } : {}),
      addressBookSettings: { ...current.addressBookSettings, ...patch.addressBookSettings },
      uploaderTemplate: { ...current.uploaderTemplate, ...patch.uploaderTemplate },
      receiverTemplate: { ...current.receiverTemplate, ...patch.receiverTemplate },
    };
    await this.accounts.setProfile(user.id, patch.info?.firstname, next, patch.locale);
    return this.view((await this.accounts.user(user.id))!);
  }

  /**
   * PUT /user/users/{managerId}/uploader-settings: the account's uploader settings; a manager's are its team's
   * policy (what members may do, spec §3, §4). Changed by the account itself, or, for a team, by a member with
   * TRANSFER_MANAGER (spec §6: the transfer policy is a transfer manager's); anyone else is refused. A team's
   * change is a policy-changed security event naming the changed flags.
   */
  async putUploaderSettings(
    auth: Authenticated | null,
    id: string,
    input: unknown,
    ctx: { ip?: string | null; userAgent?: string | null } = {},
  ): Promise<UserProfile['uploaderSettings']> {
    const settings = UploaderSettings.parse(input);
    const user = await this.readable(auth, id);
    const caller = auth!.user;
    if (user.id !== caller.id && !permissionsOf(caller).includes('TRANSFER_MANAGER'))
      throw new AppError('FORBIDDEN', "Only the team's manager or a transfer manager can change this.");
    const normalized = settings;
    const before = settingsOf(user).uploaderSettings;
    await this.accounts.setProfile(user.id, undefined, {
      ...(user.settings as Stored),
      uploaderSettings: normalized,
    });
    const changed = (Object.keys(normalized) as (keyof UploaderSettings)[]).filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(normalized[k]),
    );
    if (changed.length > 0 && this.securityLog)
      await this.securityLog.record({
        userId: user.id,
        action: 'policy-changed',
        actorUserId: caller.id,
        tokenId: auth!.tokenId,
        ip: ctx.ip ?? null,
        userAgent: ctx.userAgent ?? null,
        target: 'uploader-settings',
        details: { policy: 'uploader-settings', changed },
      });
    return normalized;
  }

  /**
   * GET /user/teams/{teamId}/uploader-settings: the settings the manager chose for the team, over the
   * team-member defaults (spec §3, §4). For the manager and the team's members.
   */
  async teamUploaderSettings(auth: Authenticated | null, teamId: string): Promise<UploaderSettings> {
    const { manager } = await this.team(auth, teamId);
    return teamMemberUploaderSettings(manager);
  }

  /**
   * GET /user/teams/{teamId}/members/{uid}: one member of a team (the manager is the member with every
   * permission). For the member themself, the manager, and members with USER_MANAGER; others learn nothing.
   */
  async teamMembership(auth: Authenticated | null, teamId: string, uid: string): Promise<TeamMembership> {
    const { caller, manager } = await this.team(auth, teamId);
    const member = uid === caller.id ? caller : uid === manager.id ? manager : await this.accounts.user(uid);
    if (!member || (member.id !== manager.id && member.managerId !== manager.id)) throw notMember();
    const allowed =
      caller.id === member.id || caller.id === manager.id || permissionsOf(caller).includes('USER_MANAGER');
    if (!allowed) throw notMember();
    const isManager = member.id === manager.id;
    return {
      teamId: manager.id,
      uid: member.id,
      email: member.email,
      displayName: member.firstname,
      isManager,
      permissions: isManager ? [...PERMISSIONS] : permissionsOf(member),
    };
  }

  /** GET /user/locations/country: from the configured proxy header, else the browser's language region, else US. */
  country(headers: Record<string, string | string[] | undefined>): string {
    const fromProxy = this.countryHeader ? headers[this.countryHeader.toLowerCase()] : undefined;
    if (typeof fromProxy === 'string' && /^[A-Za-z]{2}$/.test(fromProxy)) return fromProxy.toUpperCase();
    const language = headers['accept-language'];
    const region =
      typeof language === 'string' ? /^[a-z]{2,3}-([A-Za-z]{2})\b/i.exec(language)?.[1] : undefined;
    if (region) return region.toUpperCase();
    this.logger.info('country lookup failed; using US');
    return 'US';
  }

  /** The caller and the manager of team `teamId`, when the caller is in it; a team nobody else sees is 404. */
  private async team(
    auth: Authenticated | null,
    teamId: string,
  ): Promise<{ caller: UserRecord; manager: UserRecord }> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    const caller = auth.user;
    if (caller.id !== teamId && caller.managerId !== teamId) throw noTeam();
    const manager = caller.id === teamId ? caller : await this.accounts.user(teamId);
    // A member is not a manager: their uid names no team.
    if (!manager || manager.managerId) throw noTeam();
    return { caller, manager };
  }

  private view(user: UserRecord): UserProfile {
    return { uid: user.id, email: user.email, info: { firstname: user.firstname }, ...settingsOf(user) };
  }

  private async readable(auth: Authenticated | null, id: string): Promise<UserRecord> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    if (id !== auth.user.id && id !== auth.user.managerId)
      throw new AppError('NOT_FOUND', 'No such account.');
    const user = await this.accounts.user(id);
    if (!user) throw new AppError('NOT_FOUND', 'No such account.');
    return user;
  }

  private async own(auth: Authenticated | null, id: string): Promise<UserRecord> {
    const user = await this.readable(auth, id);
    if (user.id !== auth!.user.id) throw new AppError('FORBIDDEN', 'Only the account owner can change this.');
    return user;
  }
}

const noTeam = () => new AppError('NOT_FOUND', 'No such team.');
const notMember = () => new AppError('NOT_FOUND', 'No such member in this team.');
