import { DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS } from '@ferry/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * The authorization matrix of every team route for every team role: the manager, a member with each permission
 * (TRANSFER_MANAGER, USER_MANAGER, BILLING — a member with BILLING alone is the plain member, since a member given
 * no permission has all three, spec §6), a member of another team, another team's manager and a removed member.
 * Each call is made on a team put back as it was, so that a change one role makes is not what the next one meets.
 * (Anonymous, NONE, PREMIUM and a stranger are in authz-matrix.int.test.ts.)
 */
let sink: SmtpSink;
let ferry: TestFerry;

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const ROLES = [
  'manager',
  'transferManager',
  'userManager',
  'billing',
  'otherMember',
  'otherManager',
  'removed',
] as const;
type Role = (typeof ROLES)[number];
const people = {} as Record<Role | 'victim', Account>;

let n = 0;
const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@roles.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
      BASE_DOMAIN: 'roles.test',
    },
  });
  for (const role of [...ROLES, 'victim'] as const) people[role] = await account(role.toLowerCase());
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

const GROUP = 'grp_roles_matrix';
const INVITATION = 'inv_roles_matrix';

/** The two teams as every call finds them. */
async function reset(): Promise<void> {
  const p = people;
  await query(ferry, 'DELETE FROM team_invitations');
  await query(ferry, 'DELETE FROM host_claims');
  await query(ferry, 'UPDATE users SET group_id = NULL');
  await query(ferry, 'DELETE FROM user_groups');
  await query(ferry, 'UPDATE api_tokens SET revoked_at = now() WHERE revoked_at IS NULL');
  await query(
    ferry,
    `UPDATE users SET manager_id = NULL, permissions = '{}', team_disabled_at = NULL, plan_type = 'NONE', plan_code = NULL`,
  );
  await query(ferry, `UPDATE users SET plan_type = 'TEAM', plan_code = 'TEAM25' WHERE id = ANY($1)`, [
    [p.manager.uid, p.otherManager.uid],
  ]);
  const join = (who: Account, team: Account, permissions: string[]) =>
    query(ferry, 'UPDATE users SET manager_id = $2, permissions = $3 WHERE id = $1', [
      who.uid,
      team.uid,
      permissions,
    ]);
  await join(p.transferManager, p.manager, ['TRANSFER_MANAGER']);
  await join(p.userManager, p.manager, ['USER_MANAGER']);
  await join(p.billing, p.manager, ['BILLING']);
  await join(p.victim, p.manager, ['BILLING']);
  await join(p.otherMember, p.otherManager, []);
  // "removed": left the team through the member call earlier (beforeAll of the suite below), a free account now.
  await query(ferry, `INSERT INTO user_groups (id, team_id, name) VALUES ($1, $2, 'Designers')`, [
    GROUP,
    p.manager.uid,
  ]);
  await query(
    ferry,
    `INSERT INTO team_invitations (id, team_id, email, token_hash, expires_at)
     VALUES ($1, $2, 'invitee@roles.example', $3, now() + interval '7 days')`,
    [INVITATION, p.manager.uid, `hash-${process.pid}`],
  );
}

interface Call {
  path: string;
  body?: unknown;
}
type Row = { call: () => Call; expect: Record<Role, number> };

const T = () => people.manager.uid;
/** Expected answers per role, in ROLES order. */
const as = (
  manager: number,
  transferManager: number,
  userManager: number,
  billing: number,
  otherMember: number,
  otherManager: number,
  removed: number,
): Record<Role, number> => ({
  manager,
  transferManager,
  userManager,
  billing,
  otherMember,
  otherManager,
  removed,
});

const TABLE: Record<string, Row> = {
  // The team's uploader settings: read by every member, changed by the manager and transfer managers.
  'GET /api/user/teams/:teamId/uploader-settings': {
    call: () => ({ path: `/api/user/teams/${T()}/uploader-settings` }),
    expect: as(200, 200, 200, 200, 404, 404, 404),
  },
  'PUT /api/user/users/:id/uploader-settings': {
    call: () => ({
      path: `/api/user/users/${T()}/uploader-settings`,
      body: { ...DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS, allowS1: false },
    }),
    expect: as(200, 200, 403, 403, 404, 404, 404),
  },
  // Members, invitations and user groups: the manager and user managers.
  'GET /api/user/teams/:teamId/members': {
    call: () => ({ path: `/api/user/teams/${T()}/members` }),
    expect: as(200, 403, 200, 403, 404, 404, 404),
  },
  'GET /api/user/teams/:teamId/members/:uid': {
    call: () => ({ path: `/api/user/teams/${T()}/members/${people.victim.uid}` }),
    expect: as(200, 404, 200, 404, 404, 404, 404),
  },
  'POST /api/user/teams/:teamId/invitations': {
    call: () => ({ path: `/api/user/teams/${T()}/invitations`, body: { emails: ['new@roles.example'] } }),
    expect: as(200, 403, 200, 403, 404, 404, 404),
  },
  'DELETE /api/user/teams/:teamId/invitations/:invitationId': {
    call: () => ({ path: `/api/user/teams/${T()}/invitations/${INVITATION}` }),
    expect: as(204, 403, 204, 403, 404, 404, 404),
  },
  'PATCH /api/user/teams/:teamId/members/:uid': {
    call: () => ({
      path: `/api/user/teams/${T()}/members/${people.victim.uid}`,
      body: { permissions: ['TRANSFER_MANAGER'] },
    }),
    expect: as(200, 403, 200, 403, 404, 404, 404),
  },
  'DELETE /api/user/teams/:teamId/members/:uid': {
    call: () => ({ path: `/api/user/teams/${T()}/members/${people.victim.uid}` }),
    expect: as(204, 403, 204, 403, 404, 404, 404),
  },
  'GET /api/user/teams/:teamId/groups': {
    call: () => ({ path: `/api/user/teams/${T()}/groups` }),
    expect: as(200, 403, 200, 403, 404, 404, 404),
  },
  'POST /api/user/teams/:teamId/groups': {
    call: () => ({ path: `/api/user/teams/${T()}/groups`, body: { name: 'Sales' } }),
    expect: as(201, 403, 201, 403, 404, 404, 404),
  },
  'PATCH /api/user/teams/:teamId/groups/:groupId': {
    call: () => ({ path: `/api/user/teams/${T()}/groups/${GROUP}`, body: { name: 'Design' } }),
    expect: as(200, 403, 200, 403, 404, 404, 404),
  },
  'DELETE /api/user/teams/:teamId/groups/:groupId': {
    call: () => ({ path: `/api/user/teams/${T()}/groups/${GROUP}` }),
    expect: as(204, 403, 204, 403, 404, 404, 404),
  },
  // The admin console: the overview for both managing permissions, transfers for transfer managers.
  'GET /api/team/:teamId/overview': {
    call: () => ({ path: `/api/team/${T()}/overview` }),
    expect: as(200, 200, 200, 403, 404, 404, 404),
  },
  'GET /api/user/teams/:teamId/transfers': {
    call: () => ({ path: `/api/user/teams/${T()}/transfers` }),
    expect: as(200, 200, 403, 403, 404, 404, 404),
  },
  // Security log and authentication policy: the manager and user managers.
  'GET /api/team/:teamId/security-logs': {
    call: () => ({ path: `/api/team/${T()}/security-logs` }),
    expect: as(200, 404, 200, 404, 404, 404, 404),
  },
  'GET /api/team/:teamId/security-logs/export': {
    call: () => ({ path: `/api/team/${T()}/security-logs/export?format=json` }),
    expect: as(200, 404, 200, 404, 404, 404, 404),
  },
  'GET /api/team/:teamId/security-log-settings': {
    call: () => ({ path: `/api/team/${T()}/security-log-settings` }),
    expect: as(200, 404, 200, 404, 404, 404, 404),
  },
  'PUT /api/team/:teamId/security-log-settings': {
    call: () => ({ path: `/api/team/${T()}/security-log-settings`, body: { retentionDays: 200 } }),
    expect: as(200, 404, 200, 404, 404, 404, 404),
  },
  'GET /api/team/:teamId/authentication-policy': {
    call: () => ({ path: `/api/team/${T()}/authentication-policy` }),
    expect: as(200, 403, 200, 403, 404, 404, 404),
  },
  'PUT /api/team/:teamId/authentication-policy': {
    call: () => ({
      path: `/api/team/${T()}/authentication-policy`,
      body: { allowedEmailDomains: [], requireSecondFactor: false, signInMethods: null },
    }),
    expect: as(200, 403, 200, 403, 404, 404, 404),
  },
  // The team's subdomain and custom domains: the manager alone (a team is its manager's uid).
  'GET /api/user/users/:id/domains': {
    call: () => ({ path: `/api/user/users/${T()}/domains` }),
    expect: as(200, 403, 403, 403, 403, 403, 403),
  },
  'PUT /api/user/users/:id/domains/subdomain': {
    call: () => ({ path: `/api/user/users/${T()}/domains/subdomain`, body: { name: 'roles-team' } }),
    expect: as(200, 403, 403, 403, 403, 403, 403),
  },
  'DELETE /api/user/users/:id/domains/subdomain': {
    call: () => ({ path: `/api/user/users/${T()}/domains/subdomain` }),
    expect: as(200, 403, 403, 403, 403, 403, 403),
  },
  'POST /api/user/users/:id/domains': {
    call: () => ({ path: `/api/user/users/${T()}/domains`, body: { domain: 'files.roles.example' } }),
    expect: as(201, 403, 403, 403, 403, 403, 403),
  },
  'POST /api/user/users/:id/domains/:domain/verify': {
    // Not added (each call finds the team as reset): the manager learns that; the others are refused before.
    call: () => ({ path: `/api/user/users/${T()}/domains/files.roles.example/verify` }),
    expect: as(404, 403, 403, 403, 403, 403, 403),
  },
  'DELETE /api/user/users/:id/domains/:domain': {
    call: () => ({ path: `/api/user/users/${T()}/domains/files.roles.example` }),
    expect: as(404, 403, 403, 403, 403, 403, 403),
  },
  // Team tokens: the manager alone.
  'GET /api/team/:teamId/tokens': {
    call: () => ({ path: `/api/team/${T()}/tokens` }),
    expect: as(200, 403, 403, 403, 404, 404, 404),
  },
  'POST /api/team/:teamId/tokens': {
    call: () => ({ path: `/api/team/${T()}/tokens`, body: { name: 'matrix' } }),
    expect: as(201, 403, 403, 403, 404, 404, 404),
  },
  'DELETE /api/team/:teamId/tokens/:id': {
    // No such token: the manager learns that (404); the others are refused before.
    call: () => ({ path: `/api/team/${T()}/tokens/none` }),
    expect: as(404, 403, 403, 403, 404, 404, 404),
  },
};

/** Every registered route of a team (under /api/team/ or /api/user/teams/, and the spec's uploader-settings PUT). */
function teamRoutes(app: FastifyInstance): string[] {
  const found = new Set<string>();
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = `${stack[depth - 1] ?? ''}${m[2]!.replace(/(:\w+)(?:\|:\w+)+/g, '$1')}`;
    stack[depth] = path;
    if (!m[3]) continue;
    for (const method of m[3].split(', ')) if (method !== 'HEAD') found.add(`${method} ${path}`);
  }
  return [...found].filter(
    (r) =>
      /^[A-Z]+ \/api\/team\/:teamId\//.test(r) ||
      /^[A-Z]+ \/api\/user\/teams\/:teamId\//.test(r) ||
      r === 'PUT /api/user/users/:id/uploader-settings' ||
      /^[A-Z]+ \/api\/user\/users\/:id\/domains/.test(r),
  );
}

describe('team routes × team roles', () => {
  it('has a row for every team route the server registers', () => {
    expect(teamRoutes(ferry.app).sort()).toEqual(Object.keys(TABLE).sort());
  });

  it('answers each route as the table says for each role', async () => {
    // The removed member: was on the team, then removed by its manager through the API.
    await reset();
    await query(ferry, `UPDATE users SET manager_id = $2, permissions = '{USER_MANAGER}' WHERE id = $1`, [
      people.removed.uid,
      people.manager.uid,
    ]);
    const removal = await api(ferry.baseUrl, `/api/user/teams/${T()}/members/${people.removed.uid}`, {
      method: 'DELETE',
      headers: people.manager.bearer,
    });
    expect(removal.status).toBe(204);

    const mismatches: string[] = [];
    for (const [route, row] of Object.entries(TABLE)) {
      const method = route.split(' ')[0]!;
      for (const role of ROLES) {
        await reset();
        const call = row.call();
        const res = await api(ferry.baseUrl, call.path, {
          method,
          headers: people[role].bearer,
          ...(call.body !== undefined ? { json: call.body } : {}),
        });
        if (res.status !== row.expect[role])
          mismatches.push(
            `${route} as ${role}: expected ${row.expect[role]}, got ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`,
          );
      }
    }
    expect(mismatches).toEqual([]);
    // 203 calls, each after a reset of both teams through the database: minutes on a busy machine.
  }, 600_000);
});
