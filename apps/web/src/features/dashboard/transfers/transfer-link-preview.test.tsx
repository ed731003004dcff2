import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { signedInState } from '../../../test/fixtures';
import { click, type Rendered, render, settle, typeInto } from '../../../test/render';
import { userProfile } from '../../account/profile.fixture';
import { appHarness } from '../dashboard.fixture';
import { TransferDetailPage } from './transfer-detail-page';
import { listPage, transferDetail } from './transfers.fixture';

const ID = 'AbCdEfGhIjKlMnOp';
const OG = `/api/transfer/transfers/${ID}/open-graph`;
const routes = [{ path: '/dashboard/transfers/:id', element: <TransferDetailPage id={ID} /> }];
const view = (patch: Record<string, unknown> = {}) => ({
  transferId: ID,
  title: null,
  description: null,
  allowed: true,
  editable: true,
  ...patch,
});

describe('the link preview of a transfer, on its dashboard page', () => {
  let rendered: Rendered;
  afterEach(async () => {
    await rendered?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(og: Record<string, unknown>) {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      [`GET /api/transfer/transfers/${ID}/detail`]: () => json(transferDetail()),
      'GET /api/transfer/transfers': () => json(listPage([])),
      [`GET ${OG}`]: () => json(og),
      [`PUT ${OG}`]: (call) => json({ ...og, ...(call.body as object) }),
    });
    rendered = await render(appHarness(routes, `/dashboard/transfers/${ID}`).ui);
    await settle();
    return { root: rendered.container, api };
  }

  it('lets the owner on a paid plan choose a title and a description, with labelled fields', async () => {
    const { root, api } = await open(view({ title: 'Old title' }));
    const form = root.querySelector('[data-testid="link-preview-form"]') as HTMLFormElement;
    const [title, description] = [...form.querySelectorAll('input')];
    expect(title!.value).toBe('Old title');
    expect(form.querySelector(`label[for="${title!.id}"]`)?.textContent).toBe('Preview title');
    expect(title!.maxLength).toBe(120);
    expect(description!.maxLength).toBe(300);
    await typeInto(description!, '  Everything for Monday. ');
    await click(form.querySelector('button[type="submit"]') as HTMLElement);
    await settle();
    const put = api.calls.find((c) => c.method === 'PUT' && c.path === OG);
    expect(put?.body).toEqual({ title: 'Old title', description: 'Everything for Monday.' });
  });

  it('tells a free owner it is part of the paid plans, and shows nothing to a team manager', async () => {
    const free = await open(view({ allowed: false }));
    expect(free.root.querySelector('[data-testid="link-preview-paid"]')).not.toBeNull();
    expect(free.root.querySelector('[data-testid="link-preview-form"]')).toBeNull();
    await rendered.unmount();
    vi.unstubAllGlobals();
    const manager = await open(view({ allowed: false, editable: false }));
    expect(manager.root.querySelector('[data-testid="transfer-link-preview"]')).toBeNull();
  });
});
