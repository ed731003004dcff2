import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { checkEnterpriseForm, EMPTY_ENTERPRISE_FORM } from './enterprise-contact';
import { EnterpriseContactPage } from './enterprise-contact-page';

const routes = [{ path: '/register/enterprise', element: <EnterpriseContactPage /> }];

const input = (root: ParentNode, field: string) =>
  byTestId<HTMLInputElement | HTMLTextAreaElement>(root, `enterprise-${field}`);
const errorOf = (root: ParentNode, field: string) => {
  const ids = input(root, field).getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => root.querySelector(`#${CSS.escape(id)}.field-error`)?.textContent).find(Boolean);
};

async function fill(root: HTMLElement) {
  await typeInto(input(root, 'name'), 'Zoé Martin');
  await typeInto(input(root, 'email'), 'zoe@corp.example');
  await typeInto(input(root, 'company'), 'Corp SA');
  await typeInto(input(root, 'phone'), '+33 1 23 45 67 89');
  await typeInto(input(root, 'teamSize'), '250');
  await typeInto(input(root, 'message'), 'We need SSO.');
}

describe('/register/enterprise', () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  async function open() {
    view = await render(authHarness(routes, '/register/enterprise').ui);
    await settle();
    return view.container;
  }

  it('checks the fields, then sends the form and says thank you', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/sales/enterprise-contact': () => json({ id: 'c_1' }, 201),
    });
    const root = await open();
    expect(root.querySelector('h1')?.textContent).toBe('Ferry for your organisation');
    await typeInto(input(root, 'phone'), 'call me');
    await typeInto(input(root, 'teamSize'), '12 people');
    await click(byTestId(root, 'enterprise-submit'));
    expect(errorOf(root, 'name')).toBe('Enter your name.');
    expect(errorOf(root, 'email')).toBe('Enter a valid e-mail address, like name@example.com.');
    expect(errorOf(root, 'company')).toBe('Enter the name of your company.');
    expect(errorOf(root, 'phone')).toBe('Enter a phone number, like +33 1 23 45 67 89.');
    expect(errorOf(root, 'teamSize')).toBe('Enter a number of people, 1 or more.');
    expect(input(root, 'name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(input(root, 'name'));
    expect(api.to('POST /api/sales/enterprise-contact')).toHaveLength(0);

    await fill(root);
    expect(root.textContent).toContain('4988 characters left.');
    await click(byTestId(root, 'enterprise-submit'));
    await settle();
    expect(api.to('POST /api/sales/enterprise-contact')[0]?.body).toEqual({
      name: 'Zoé Martin',
      email: 'zoe@corp.example',
      company: 'Corp SA',
      phone: '+33 1 23 45 67 89',
      teamSize: 250,
      message: 'We need SSO.',
      locale: 'en',
    });
    expect(byTestId(root, 'page-enterprise').dataset.state).toBe('sent');
    expect(byTestId(root, 'enterprise-thanks').textContent).toBe(
      'Thank you, Zoé Martin. Our sales team has your request and will write to you at zoe@corp.example.',
    );
  });

  it('says clearly when too many requests were sent, counting down the wait', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/sales/enterprise-contact': [
        () => coded(429, 'RATE_LIMITED', { 'Retry-After': '3' }),
        () => coded(429, 'RATE_LIMITED'),
      ],
    });
    const root = await open();
    await fill(root);
    await click(byTestId(root, 'enterprise-submit'));
    await settle();
    const alert = byTestId(root, 'enterprise-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.dataset.problem).toBe('rate_limited');
    expect(alert.textContent).toContain(
      'You sent several requests in a short time. You can send again in about 3 seconds.',
    );
    expect(byTestId<HTMLButtonElement>(root, 'enterprise-submit').disabled).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(3100));
    expect(byTestId(root, 'enterprise-error').textContent).toContain('You can try again now.');
    expect(byTestId<HTMLButtonElement>(root, 'enterprise-submit').disabled).toBe(false);
    await click(byTestId(root, 'enterprise-submit'));
    await settle();
    expect(byTestId(root, 'enterprise-error').textContent).toContain(
      'Please wait a moment before sending again.',
    );
    expect(byTestId(root, 'page-enterprise').dataset.state).toBe('form');
  });

  it('starts from the signed-in account, and tells other errors in words', async () => {
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'POST /api/sales/enterprise-contact': () => coded(503, 'UNAVAILABLE'),
    });
    const root = await open();
    expect(input(root, 'email').value).toBe('ada@example.com');
    expect(input(root, 'name').value).toBe('Ada');
    await typeInto(input(root, 'company'), 'Analytical Engines');
    await click(byTestId(root, 'enterprise-submit'));
    await settle();
    expect(byTestId(root, 'enterprise-error').textContent).toContain('briefly unavailable');
  });

  it('leaves out empty optional fields and refuses what the contract refuses', () => {
    const base = { ...EMPTY_ENTERPRISE_FORM, name: ' A ', email: 'a@b.example', company: 'C' };
    expect(checkEnterpriseForm(base)).toEqual({
      errors: {},
      request: { name: 'A', email: 'a@b.example', company: 'C' },
    });
    expect(checkEnterpriseForm({ ...base, teamSize: '0' }).errors).toEqual({
      teamSize: 'auth:enterprise_error_team_size',
    });
    expect(checkEnterpriseForm({ ...base, teamSize: '1.5' }).errors.teamSize).toBeTruthy();
    expect(checkEnterpriseForm({ ...base, phone: '12345' }).errors.phone).toBeTruthy();
    expect(checkEnterpriseForm({ ...base, phone: '(555) 010-9999' }).errors).toEqual({});
    expect(checkEnterpriseForm({ ...base, message: 'x'.repeat(5001) }).errors).toEqual({
      message: 'auth:enterprise_error_message',
    });
    expect(checkEnterpriseForm({ ...base, company: '  ' }).request).toBeNull();
  });
});
