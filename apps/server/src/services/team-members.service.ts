import {
  Email,
  type IdTokenResponse,
  INVITATION_VALID_DAYS,
  MAX_INVITATIONS_PER_CALL,
  PERMISSIONS,
  type Permission,
  TeamInvitationAccept,
  type TeamInvitationView,
  TeamInviteRequest,
  type TeamInviteResponse,
  type TeamInviteResult,
  type TeamMember,
  type TeamMembersResponse,
  TeamMemberUpdate,
  teamLicences,
  UploaderSettingsOverrides,
  type UserGroup,
  UserGroupCreate,
  type UserGroupList,
  UserGroupUpdate,
} from '@ferry/core';
import type { Logger } from 'pino';
import { PgAccountRepository, type UserRecord } from '../db/account.repository.js';
import type {
  GroupRecord,
  InvitationRecord,
  PgTeamMembersRepository,
} from '../db/team-members.repository.js';
import { randomAlphanumeric } from '../lib/ids.js';
import { teamInvitation } from '../mail/templates/index.js';
import { randomToken, sha256Hex } from '../security/secrets.js';
import { AppError } from './app-error.js';
import type { Authenticated, AuthService } from './auth.service.js';
import { planOf } from './effective-plan.js';
import type { MailQueue } from './notification.service.js';
import type { PasswordHasher } from './ports.js';
import type { SecurityLog } from './security-log.js';
import { permissionsOf } from './user.service.js';

/** Where a request came from, for the security log and the links mailed. */
export interface TeamRequestContext {
  ip: string | null;
  userAgent: string | null;
  /** Origin of the links mailed (PUBLIC_URL). */
  origin: string;
}

interface Row {
  email: string;
  permissions: Permission[];
  line?: number;
  invalid?: boolean;
}

/**
 * Team members (issue "Teams a manager runs"): invitations (seats held under the team's row lock), the accept
 * call, and the manager's member actions. Allowed: the team's manager and its members with USER_MANAGER, while
 * the team has a team plan (TEAM, TEAM10, TEAM25, ENTERPRISE/CUSTOM).
 */
export class TeamMembersService {
  constructor(
    private readonly repo: PgTeamMembersRepository,
    private readonly accounts: PgAccountRepository,
    private readonly auth: Pick<AuthService, 'idTokenForAccount'>,
    private readonly passwords: PasswordHasher,
    private readonly mail: MailQueue,
    private readonly securityLog: SecurityLog,
    private readonly productName: string,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private emailAllowed: (teamId: string, email: string) => Promise<boolean> = async () => true;

  /** The team's allowed e-mail domains (team-policy.ts): invitations and joins outside them are refused. */
  restrictEmails(allowed: (teamId: string, email: string) => Promise<boolean>): void {
    this.emailAllowed = allowed;
  }

  async invite(
    auth: Authenticated | null,
    teamId: string,
    input: unknown,
    ctx: TeamRequestContext,
  ): Promise<TeamInviteResponse> {
    const request = TeamInviteRequest.parse(input);
    const { caller, manager } = await this.admin(auth, teamId);
    const rows: Row[] = [
      ...request.emails.map((email) => ({ email: email.trim(), permissions: request.permissions })),
      ...(request.csv ? parseCsv(request.csv) : []),
    ];
    if (rows.length > MAX_INVITATIONS_PER_CALL)
      throw new AppError('VALIDATION_FAILED', `At most ${MAX_INVITATIONS_PER_CALL} addresses at once.`);
    const licences = teamLicences(manager.planCode, manager.limitSettings.licences);
    const results: TeamInviteResult[] = [];
    const seen = new Set<string>();
    for (const row of rows) {
      const base = { email: row.email, ...(row.line ? { line: row.line } : {}) };
      const email = Email.safeParse(row.email);
      if (row.invalid || !email.success) {
        results.push({ ...base, result: 'invalid', reason: 'format' });
        continue;
      }
      if (!(await this.emailAllowed(manager.id, email.data))) {
        results.push({ ...base, result: 'invalid', reason: 'domain' });
        continue;
      }
      const address = email.data.toLowerCase();
      if (seen.has(address)) {
        results.push({ ...base, result: 'already-member' });
        continue;
      }
      seen.add(address);
      results.push({
        ...base,
        ...(await this.inviteOne(caller, manager, email.data, row.permissions, licences, ctx)),
      });
    }
    return { results };
  }

  /** One address under the team's lock: a seat is counted and taken in the same transaction. */
  private async inviteOne(
    caller: UserRecord,
    manager: UserRecord,
    email: string,
    permissions: Permission[],
    licences: number | null,
    ctx: TeamRequestContext,
  ): Promise<Pick<TeamInviteResult, 'result' | 'invitationId'>> {
    const token = randomToken(32);
    const outcome = await this.repo.withTeamLock(manager.id, async (db) => {
      const accounts = new PgAccountRepository(db);
      const existing = await accounts.userByEmail(email);
      if (existing && (existing.id === manager.id || existing.managerId === manager.id))
        return { result: 'already-member' as const };
      if (existing?.managerId) return { result: 'ALREADY_IN_TEAM' as const };
      // A manager of another team (it has members) cannot join one either.
      if (existing && (await this.repo.seatsUsed(existing.id, db)) > 1)
        return { result: 'ALREADY_IN_TEAM' as const };
      if (await this.repo.pendingFor(manager.id, email, db)) return { result: 'already-member' as const };
      if (licences !== null && (await this.repo.seatsUsed(manager.id, db)) + 1 > licences)
        return { result: 'MAX_LICENCES_REACHED' as const };
      const id = randomAlphanumeric(20);
      await this.repo.createInvitation(
        {
          id,
          teamId: manager.id,
          email,
          tokenHash: sha256Hex(token),
          permissions,
          inviterId: caller.id,
          expiresAt: new Date(this.now().getTime() + INVITATION_VALID_DAYS * 86_400_000),
        },
        db,
      );
      await this.securityLog.record(
        {
          userId: manager.id,
          action: 'member-invited',
          actorUserId: caller.id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          target: email,
          details: { permissions },
        },
        db,
      );
      return { result: 'invited' as const, invitationId: id };
    });
    if (outcome.result === 'invited') {
      const rendered = await teamInvitation(
        { locale: caller.locale, productName: this.productName },
        {
          inviter: caller.firstname || caller.email,
          inviterEmail: caller.email,
          url: `${ctx.origin}/join?token=${token}`,
          validDays: INVITATION_VALID_DAYS,
        },
      );
      await this.mail.enqueue({
        to: [email],
        subject: rendered.subject,
        html: rendered.html,
        text: rendered.text,
        idempotencyKey: `team-invitation-${outcome.invitationId}`,
      });
    }
    return outcome;
  }

  async members(auth: Authenticated | null, teamId: string): Promise<TeamMembersResponse> {
    const { manager } = await this.admin(auth, teamId);
    const [members, invitations, used] = await Promise.all([
      this.repo.members(manager.id),
      this.repo.pendingInvitations(manager.id),
      this.repo.seatsUsed(manager.id),
    ]);
    const list: TeamMember[] = [
      {
        email: manager.email,
        uid: manager.id,
        invitationId: null,
        status: 'active',
        isManager: true,
        permissions: [...PERMISSIONS],
        groupId: null,
        firstname: manager.firstname,
        lastSignInAt: manager.lastLoginAt?.toISOString() ?? null,
        expiresAt: null,
      },
      ...members.map(
        (m): TeamMember => ({
          email: m.email,
          uid: m.id,
          invitationId: null,
          status: m.teamDisabledAt ? 'disabled' : 'active',
          isManager: false,
          permissions: permissionsOf({ managerId: manager.id, permissions: m.permissions }),
          groupId: m.groupId,
          firstname: m.firstname,
          lastSignInAt: m.lastLoginAt?.toISOString() ?? null,
          expiresAt: null,
        }),
      ),
      ...invitations.map(
        (i): TeamMember => ({
          email: i.email,
          uid: null,
          invitationId: i.id,
          status: 'invited',
          isManager: false,
          permissions: permissionsOf({ managerId: manager.id, permissions: i.permissions }),
          groupId: null,
          firstname: null,
          lastSignInAt: null,
          expiresAt: i.expiresAt.toISOString(),
        }),
      ),
    ];
    return {
      members: list,
      seats: { licences: teamLicences(manager.planCode, manager.limitSettings.licences), used },
    };
  }

  /** Withdraws a pending invitation: its link stops working and its seat is free. */
  async withdraw(auth: Authenticated | null, teamId: string, invitationId: string): Promise<void> {
    const { manager } = await this.admin(auth, teamId);
    if (!(await this.repo.withdraw(manager.id, invitationId)))
      throw new AppError('NOT_FOUND', 'No such pending invitation.');
  }

  async update(
    auth: Authenticated | null,
    teamId: string,
    uid: string,
    input: unknown,
    ctx: TeamRequestContext,
  ): Promise<TeamMember> {
    const patch = TeamMemberUpdate.parse(input);
    const { caller, manager } = await this.admin(auth, teamId);
    if (uid === manager.id) throw new AppError('FORBIDDEN', "The team's manager cannot be changed here.");
    const member = await this.member(manager, uid);
    const log = (action: 'permissions-changed' | 'member-disabled' | 'member-enabled', details = {}) =>
      this.securityLog.record({
        userId: manager.id,
        action,
        actorUserId: caller.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        target: member.email,
        details,
      });
    if (patch.permissions !== undefined) {
      const permissions = [...new Set(patch.permissions)];
      await this.repo.setPermissions(manager.id, uid, permissions);
      await log('permissions-changed', {
        from: permissionsOf(member),
        to: permissionsOf({ managerId: manager.id, permissions }),
      });
    }
    if (patch.groupId !== undefined && !(await this.repo.setGroup(manager.id, uid, patch.groupId)))
      throw new AppError('NOT_FOUND', 'No such user group in this team.');
    if (patch.disabled !== undefined && patch.disabled !== (member.teamDisabledAt !== null)) {
      await this.repo.setDisabled(manager.id, uid, patch.disabled);
      await log(patch.disabled ? 'member-disabled' : 'member-enabled');
    }
    const after = (await this.members(auth, teamId)).members.find((m) => m.uid === uid);
    if (!after) throw new AppError('NOT_FOUND', 'No such member in this team.');
    return after;
  }

  /**
   * The member leaves the team: a free account again, keeping its transfers; its upload inboxes move to the
   * manager. A manager cannot remove themself.
   */
  async remove(
    auth: Authenticated | null,
    teamId: string,
    uid: string,
    ctx: TeamRequestContext,
  ): Promise<void> {
    const { caller, manager } = await this.admin(auth, teamId);
    if (uid === manager.id)
      throw new AppError('FORBIDDEN', "The team's manager cannot leave their own team.");
    const member = await this.member(manager, uid);
    await this.repo.withTeamLock(manager.id, async (db) => {
      if (!(await this.repo.remove(manager.id, uid, db))) throw notMember();
      await this.securityLog.record(
        {
          userId: manager.id,
          action: 'member-removed',
          actorUserId: caller.id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          target: member.email,
        },
        db,
      );
    });
  }

  // --- user groups ---------------------------------------------------------------------------------------

  async groups(auth: Authenticated | null, teamId: string): Promise<UserGroupList> {
    const { manager } = await this.admin(auth, teamId);
    return { groups: (await this.repo.groups(manager.id)).map(groupView) };
  }

  async createGroup(
    auth: Authenticated | null,
    teamId: string,
    input: unknown,
    ctx: TeamRequestContext,
  ): Promise<UserGroup> {
    const request = UserGroupCreate.parse(input);
    const { caller, manager } = await this.admin(auth, teamId);
    const id = randomAlphanumeric(16);
    if (
      !(await this.repo.createGroup({
        id,
        teamId: manager.id,
        name: request.name,
        overrides: request.overrides,
      }))
    )
      throw new AppError('CONFLICT', 'The team has a group of that name already.');
    await this.logPolicy(caller, manager, request.name, { group: id, overrides: request.overrides }, ctx);
    return this.group(manager.id, id);
  }

  async updateGroup(
    auth: Authenticated | null,
    teamId: string,
    groupId: string,
    input: unknown,
    ctx: TeamRequestContext,
  ): Promise<UserGroup> {
    const patch = UserGroupUpdate.parse(input);
    const { caller, manager } = await this.admin(auth, teamId);
    const outcome = await this.repo.updateGroup(manager.id, groupId, patch);
    if (outcome === 'missing') throw new AppError('NOT_FOUND', 'No such user group in this team.');
    if (outcome === 'taken') throw new AppError('CONFLICT', 'The team has a group of that name already.');
    const group = await this.group(manager.id, groupId);
    if (patch.overrides)
      await this.logPolicy(caller, manager, group.name, { group: groupId, overrides: patch.overrides }, ctx);
    return group;
  }

  async deleteGroup(auth: Authenticated | null, teamId: string, groupId: string): Promise<void> {
    const { manager } = await this.admin(auth, teamId);
    if (!(await this.repo.deleteGroup(manager.id, groupId)))
      throw new AppError('NOT_FOUND', 'No such user group in this team.');
  }

  private async group(teamId: string, id: string): Promise<UserGroup> {
    const group = (await this.repo.groups(teamId)).find((g) => g.id === id);
    if (!group) throw new AppError('NOT_FOUND', 'No such user group in this team.');
    return groupView(group);
  }

  private logPolicy(
    caller: UserRecord,
    manager: UserRecord,
    target: string,
    details: Record<string, unknown>,
    ctx: TeamRequestContext,
  ): Promise<void> {
    return this.securityLog.record({
      userId: manager.id,
      action: 'policy-changed',
      actorUserId: caller.id,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      target,
      details,
    });
  }

  /** GET /user/team-invitations/{token}: what /join shows (no sign-in needed: the link is the secret). */
  async view(token: string): Promise<TeamInvitationView> {
    const invitation = await this.usable(await this.repo.invitationByToken(sha256Hex(token)));
    const inviter = invitation.inviterId ? await this.accounts.user(invitation.inviterId) : null;
    const manager = (await this.accounts.user(invitation.teamId))!;
    return {
      email: invitation.email,
      teamId: invitation.teamId,
      inviterEmail: (inviter ?? manager).email,
      inviterName: (inviter ?? manager).firstname,
      accountExists: (await this.accounts.userByEmail(invitation.email)) !== null,
      expiresAt: invitation.expiresAt.toISOString(),
    };
  }

  /**
   * POST /user/team-invitations/accept. A new address gets a verified account (the mail proved it) with the
   * password; an existing account must be signed in as the invited address. A paying individual keeps their own
   * subscription (nothing is cancelled).
   */
  async accept(
    auth: Authenticated | null,
    input: unknown,
    ctx: TeamRequestContext,
  ): Promise<IdTokenResponse> {
    const request = TeamInvitationAccept.parse(input);
    const hash = sha256Hex(request.token);
    const first = await this.usable(await this.repo.invitationByToken(hash));
    // The team may have narrowed its domains since the invitation went out.
    if (!(await this.emailAllowed(first.teamId, first.email)))
      throw new AppError(
        'EMAIL_DOMAIN_NOT_ALLOWED',
        'This address is outside the domains the team allows now.',
      );
    const existing = await this.accounts.userByEmail(first.email);
    if (existing) {
      if (!auth || auth.user.id !== existing.id)
        throw new AppError('UNAUTHORIZED', `Sign in as ${first.email} to accept this invitation.`);
    } else if (!request.password) {
      throw new AppError('VALIDATION_FAILED', 'Choose a password for your new account.');
    }
    const passwordHash = existing ? null : await this.passwords.hash(request.password!);
    const userId = await this.repo.withTeamLock(first.teamId, async (db) => {
      const invitation = await this.usable(await this.repo.invitationByToken(hash, db, true));
      const accounts = new PgAccountRepository(db);
      let user = await accounts.userByEmail(invitation.email);
      if (user && user.id !== existing?.id) throw new AppError('CONFLICT', 'Sign in first, then accept.');
      if (user?.managerId && user.managerId !== invitation.teamId)
        throw new AppError('ALREADY_IN_TEAM', 'This account is a member of another team.');
      if (user && (await this.repo.seatsUsed(user.id, db)) > 1)
        throw new AppError('ALREADY_IN_TEAM', 'This account manages a team of its own.');
      if (!user) {
        user = await accounts.createVerifiedUser({
          id: randomAlphanumeric(20),
          email: invitation.email,
          firstname: request.firstname?.trim() || null,
          locale: null,
        });
        if (!user)
          throw new AppError('CONFLICT', 'An account was just made for this address: sign in first.');
        await accounts.setPassword(user.id, passwordHash!);
      }
      await this.repo.attach(user.id, invitation.teamId, invitation.permissions, db);
      await this.repo.markAccepted(invitation.id, db);
      await this.securityLog.record(
        {
          userId: invitation.teamId,
          action: 'member-joined',
          actorUserId: user.id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          target: invitation.email,
        },
        db,
      );
      return user.id;
    });
    this.logger.info({ userId, teamId: first.teamId }, 'team invitation accepted');
    return this.auth.idTokenForAccount((await this.accounts.user(userId))!);
  }

  private async usable(invitation: InvitationRecord | null): Promise<InvitationRecord> {
    if (!invitation) throw new AppError('NOT_FOUND', 'No such invitation.');
    const reason = invitation.acceptedAt
      ? 'accepted'
      : invitation.withdrawnAt
        ? 'withdrawn'
        : invitation.expiresAt <= this.now()
          ? 'expired'
          : null;
    if (reason)
      throw new AppError('INVITATION_NOT_VALID', `This invitation was ${reason}.`, { details: { reason } });
    return invitation;
  }

  private async member(manager: UserRecord, uid: string): Promise<UserRecord> {
    const member = await this.accounts.user(uid);
    if (!member || member.managerId !== manager.id) throw notMember();
    return member;
  }

  /**
   * The caller and the team's manager when the caller may manage members: the manager, or a member with
   * USER_MANAGER; the team needs a team plan. Others (another team, no team) learn nothing: 404.
   */
  private async admin(
    auth: Authenticated | null,
    teamId: string,
  ): Promise<{ caller: UserRecord; manager: UserRecord }> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    const caller = auth.user;
    if (caller.id !== teamId && caller.managerId !== teamId) throw noTeam();
    const manager = caller.id === teamId ? caller : await this.accounts.user(teamId);
    if (!manager || manager.managerId) throw noTeam();
    if (caller.id !== manager.id && !permissionsOf(caller).includes('USER_MANAGER'))
      throw new AppError('FORBIDDEN', 'Managing members needs the USER_MANAGER permission.');
    const plan = planOf(manager, this.now());
    if (plan !== 'TEAM' && plan !== 'ENTERPRISE')
      throw new AppError('FORBIDDEN', 'Members need a team plan (TEAM, TEAM10, TEAM25 or ENTERPRISE).');
    return { caller, manager };
  }
}

const groupView = (g: GroupRecord): UserGroup => ({
  id: g.id,
  name: g.name,
  overrides: UploaderSettingsOverrides.parse(g.overrides),
  memberIds: g.memberIds,
});

const noTeam = () => new AppError('NOT_FOUND', 'No such team.');
const notMember = () => new AppError('NOT_FOUND', 'No such member in this team.');

/**
 * A CSV of members: header optional (a first line whose first cell has no `@` and says "email"), columns
 * email[, permissions]; permissions separated by `;`, `|` or spaces. A row with an unknown permission is invalid.
 */
export function parseCsv(text: string): Row[] {
  const rows: Row[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    const cells = splitCsvLine(raw);
    const email = (cells[0] ?? '').trim();
    if (index === 0 && /^e-?mail/i.test(email) && !email.includes('@')) continue;
    const named = (cells[1] ?? '')
      .split(/[;|\s]+/)
      .map((p) => p.trim().toUpperCase())
      .filter(Boolean);
    const invalid = named.some((p) => !(PERMISSIONS as readonly string[]).includes(p));
    rows.push({ email, permissions: invalid ? [] : (named as Permission[]), line: index + 1, invalid });
    if (rows.length > MAX_INVITATIONS_PER_CALL)
      throw new AppError('VALIDATION_FAILED', `A CSV holds at most ${MAX_INVITATIONS_PER_CALL} rows.`);
  }
  return rows;
}

function splitCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}
