import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { UploaderPage } from './uploader-page';

function pick(input: HTMLInputElement, files: File[]) {
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  return act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const routes = [{ path: '/', element: <UploaderPage /> }];

describe('uploader with an account', () => {
  let view: Rendered;
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(
      'ferry.sender',
      JSON.stringify({ email: 'old@example.com', name: '', verifications: [] }),
    );
  });
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function toOptions() {
    const root = view.container;
    await pick(byTestId(root, 'file-input'), [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'next'));
    return root;
  }

  it('prefills the sender with the account’s e-mail (and name) when signed in, without saving it', async () => {
    mockApi({ 'GET /api/auth/me': () => json(signedInState()) });
    view = await render(authHarness(routes, '/#S1').ui);
    await settle();
    const root = await toOptions();
    expect(byTestId<HTMLInputElement>(root, 'sender-email').value).toBe('ada@example.com');
    expect(byTestId<HTMLInputElement>(root, 'sender-name').value).toBe('Ada');
    expect(byTestId(root, 'sender-hint').textContent).toBe('The address of your account: no code is needed.');
    await typeInto(byTestId(root, 'sender-email'), 'other@example.com');
    expect(byTestId(root, 'sender-hint').textContent).toContain('We e-mail you a code');
    await typeInto(byTestId(root, 'sender-name'), 'Ada L.');
    // The anonymous sender's saved address stays; the typed name is kept.
    expect(JSON.parse(localStorage.getItem('ferry.sender') ?? '{}')).toMatchObject({
      email: 'old@example.com',
      name: 'Ada L.',
    });
  });

  it('keeps the saved sender for anonymous visitors', async () => {
    mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    view = await render(authHarness(routes, '/#S1').ui);
    await settle();
    const root = await toOptions();
    expect(byTestId<HTMLInputElement>(root, 'sender-email').value).toBe('old@example.com');
  });
});
