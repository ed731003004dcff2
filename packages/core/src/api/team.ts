import { z } from 'zod';
import { PERMISSIONS } from '../enums.js';
import { Password } from './auth.js';
import { PersonName } from './transfer.js';
import { UploaderSettings } from './user.js';

/*
 * A team's members and invitations (issue "Teams a manager runs", spec §4). A team is its manager's uid; the manager
 * and members with USER_MANAGER invite, list and manage members. Invitations hold a seat until accepted, withdrawn
 * or expired (7 days).
 */

/** At most this many addresses in one invitation call (a CSV import included). */
export const MAX_INVITATIONS_PER_CALL = 1000;
/** An invitation link is valid this long. */
export const INVITATION_VALID_DAYS = 7;

export const TeamPermission = z.enum(PERMISSIONS);

/** POST /user/teams/{teamId}/invitations: addresses typed, and/or a CSV (columns email[, permissions]). */
export const TeamInviteRequest = z
  .object({
    emails: z.array(z.string().max(320)).max(MAX_INVITATIONS_PER_CALL).default([]),
    /** Permissions of every typed address (a CSV row may name its own, separated by `;` or `|`). */
    permissions: z.array(TeamPermission).default([]),
    /** A CSV file's text: header optional, columns email[, permissions]; up to 1 000 rows. */
    csv: z.string().max(1_000_000).optional(),
  })
  .refine((r) => r.emails.length > 0 || (r.csv ?? '').trim() !== '', {
    message: 'Give at least one address or a CSV.',
  });
export type TeamInviteRequest = z.input<typeof TeamInviteRequest>;

/** One result per address or CSV row: what `ferry team invite` prints after the address. */
export const INVITE_OUTCOMES = [
  'invited',
  'already-member',
  'invalid',
  'ALREADY_IN_TEAM',
  'MAX_LICENCES_REACHED',
] as const;
export const InviteOutcome = z.enum(INVITE_OUTCOMES);
export type InviteOutcome = z.infer<typeof InviteOutcome>;

export const TeamInviteResult = z.object({
  /** The address as given (trimmed); a CSV row's first column. */
  email: z.string(),
  /** 1-based CSV line, for a CSV row. */
  line: z.number().int().optional(),
  result: InviteOutcome,
  /** The invitation made (for `invited`). */
  invitationId: z.string().optional(),
  /** Why an address is `invalid`: not an address, or outside the team's allowed e-mail domains. */
  reason: z.enum(['format', 'domain']).optional(),
});
export type TeamInviteResult = z.infer<typeof TeamInviteResult>;

export const TeamInviteResponse = z.object({ results: z.array(TeamInviteResult) });
export type TeamInviteResponse = z.infer<typeof TeamInviteResponse>;

export const MEMBER_STATUSES = ['invited', 'active', 'disabled'] as const;
export const MemberStatus = z.enum(MEMBER_STATUSES);
export type MemberStatus = z.infer<typeof MemberStatus>;

/** One row of GET /user/teams/{teamId}/members: an account of the team or a pending invitation. */
export const TeamMember = z.object({
  email: z.string(),
  /** Null for a pending invitation. */
  uid: z.string().nullable(),
  /** Set for a pending invitation (withdraw it with DELETE …/invitations/{invitationId}). */
  invitationId: z.string().nullable(),
  status: MemberStatus,
  isManager: z.boolean(),
  permissions: z.array(TeamPermission),
  /** The member's user group (null: none; always null for the manager and an invitation). */
  groupId: z.string().nullable(),
  firstname: z.string().nullable(),
  lastSignInAt: z.string().datetime().nullable(),
  /** For a pending invitation: when it lapses. */
  expiresAt: z.string().datetime().nullable(),
});
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamMembersResponse = z.object({
  members: z.array(TeamMember),
  /** Seats of the plan or contract (null: not capped); used = manager + members + pending invitations. */
  seats: z.object({ licences: z.number().int().nullable(), used: z.number().int() }),
});
export type TeamMembersResponse = z.infer<typeof TeamMembersResponse>;

/** PATCH /user/teams/{teamId}/members/{uid}: permissions, disabled and/or the user group (null: none). */
export const TeamMemberUpdate = z
  .object({
    permissions: z.array(TeamPermission).optional(),
    disabled: z.boolean().optional(),
    groupId: z.string().max(100).nullable().optional(),
  })
  .refine((u) => u.permissions !== undefined || u.disabled !== undefined || u.groupId !== undefined, {
    message: 'Nothing to change.',
  });
export type TeamMemberUpdate = z.infer<typeof TeamMemberUpdate>;

/** GET /user/team-invitations/{token}: what the /join page shows before accepting. */
export const TeamInvitationView = z.object({
  email: z.string(),
  teamId: z.string(),
  inviterEmail: z.string(),
  inviterName: z.string().nullable(),
  /** An account exists for the address: sign in as it to accept; else choose a password. */
  accountExists: z.boolean(),
  expiresAt: z.string().datetime(),
});
export type TeamInvitationView = z.infer<typeof TeamInvitationView>;

/** POST /user/team-invitations/accept → 200 { idToken, expiresAt } (IdTokenResponse). */
export const TeamInvitationAccept = z.object({
  token: z.string().min(1).max(200),
  /** Required when no account exists for the invited address. */
  password: Password.optional(),
  firstname: z.string().max(100).optional(),
});
export type TeamInvitationAccept = z.infer<typeof TeamInvitationAccept>;

/** A group's policy overrides: any uploader-settings flags, each winning over the team's for its members. */
export const UploaderSettingsOverrides = UploaderSettings.partial();
export type UploaderSettingsOverrides = z.infer<typeof UploaderSettingsOverrides>;

/** A team's user group (GET /user/teams/{teamId}/groups). */
export const UserGroup = z.object({
  id: z.string(),
  name: z.string(),
  overrides: UploaderSettingsOverrides,
  /** uids of the members in the group. */
  memberIds: z.array(z.string()),
});
export type UserGroup = z.infer<typeof UserGroup>;

export const UserGroupList = z.object({ groups: z.array(UserGroup) });
export type UserGroupList = z.infer<typeof UserGroupList>;

const GroupName = PersonName(80).pipe(z.string().min(1));

/** POST /user/teams/{teamId}/groups. */
export const UserGroupCreate = z.object({
  name: GroupName,
  overrides: UploaderSettingsOverrides.default({}),
});
export type UserGroupCreate = z.input<typeof UserGroupCreate>;

/** PATCH /user/teams/{teamId}/groups/{groupId}: rename and/or replace the overrides. */
export const UserGroupUpdate = z.object({
  name: GroupName.optional(),
  overrides: UploaderSettingsOverrides.optional(),
});
export type UserGroupUpdate = z.infer<typeof UserGroupUpdate>;
