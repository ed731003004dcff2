import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { transferSummary } from '../../test/fixtures';
import { byTestId, click, flush, type Rendered, render } from '../../test/render';
import { codeDigits, SenderVerification, type VerifiedResult } from './sender-verification';

const ID = 'AbCdEfGhIjKlMnOp';

function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers });
}
function coded(status: number, code: string, extra: Record<string, unknown> = {}, headers = {}) {
  return json({ status, error: 'x', message: code, codes: [code], ...extra }, status, headers);
}

type Handler = (url: URL, init: RequestInit | undefined) => Response;
function serve(handler: Handler) {
  const fetchMock = vi.fn(async (input: string, init?: RequestInit) =>
    handler(new URL(input, 'http://x'), init),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const verified = {
  transfer: transferSummary({ type: 'S1', senderEmail: 'me@example.com', senderVerification: 'verified' }),
  senderVerificationToken: 'proof-123',
  expiresAt: '2031-01-01T00:00:00.000Z',
};

async function typeCode(root: HTMLElement, value: string) {
  const input = byTestId<HTMLInputElement>(root, 'verification-code');
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
  await act(async () => {
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await flush();
}

async function pasteCode(root: HTMLElement, text: string) {
  const event = new Event('paste', { bubbles: true, cancelable: true }) as Event & {
    clipboardData: { getData: () => string };
  };
  event.clipboardData = { getData: () => text };
  await act(async () => {
    byTestId(root, 'verification-code').dispatchEvent(event);
  });
  await flush();
}

function setup(resendAvailableAt = Date.now() + 60_000) {
  const onVerified = vi.fn<(result: VerifiedResult) => void>();
  const onResent = vi.fn<(seconds: number) => void>();
  const ui = (
    <SenderVerification
      transferId={ID}
      uploadToken="tok"
      email="me@example.com"
      purpose="send"
      resendAvailableAt={resendAvailableAt}
      onVerified={onVerified}
      onResent={onResent}
    />
  );
  return { ui, onVerified, onResent };
}

describe('codeDigits', () => {
  it('keeps the six digits of what was typed or pasted', () => {
    expect(codeDigits('123 456')).toBe('123456');
    expect(codeDigits('Your code: 654-321.')).toBe('654321');
    expect(codeDigits('12345678')).toBe('123456');
    expect(codeDigits('abc')).toBe('');
  });
});

describe('SenderVerification', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('is a numeric one-time-code field that says where the code went', async () => {
    const { ui } = setup();
    serve(() => json({}));
    view = await render(ui);
    const input = byTestId<HTMLInputElement>(view.container, 'verification-code');
    expect(input.getAttribute('inputmode')).toBe('numeric');
    expect(input.getAttribute('autocomplete')).toBe('one-time-code');
    expect(view.container.querySelector(`label[for="${input.id}"]`)?.textContent).toBe('6-digit code');
    expect(byTestId(view.container, 'verification-email').textContent).toContain(
      'We sent a code to me@example.com.',
    );
  });

  it('checks a pasted code at once and hands over the proof', async () => {
    const { ui, onVerified } = setup();
    const fetchMock = serve(() => json(verified));
    view = await render(ui);
    await pasteCode(view.container, ' 482 913 ');
    expect(fetchMock).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(`/api/transfer/transfers/${ID}/sender-verification`);
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"code":"482913"}');
    expect((init.headers as Record<string, string>)['X-Upload-Token']).toBe('tok');
    expect(onVerified).toHaveBeenCalledWith({
      transfer: verified.transfer,
      proof: { senderVerificationToken: 'proof-123', expiresAt: '2031-01-01T00:00:00.000Z' },
    });
  });

  it('says a wrong code is wrong, clears it and lets the sender try again', async () => {
    const { ui, onVerified } = setup();
    let calls = 0;
    serve(() =>
      ++calls === 1
        ? coded(403, 'WRONG_VERIFICATION_CODE', { details: { attemptsLeft: 4 } })
        : json(verified),
    );
    view = await render(ui);
    const root = view.container;
    await typeCode(root, '111111');
    expect(byTestId(root, 'verification-error').textContent).toBe(
      'This code is not right. Check the e-mail and try again. 4 attempts left.',
    );
    expect(byTestId<HTMLInputElement>(root, 'verification-code').value).toBe('');
    expect(byTestId(root, 'verification-code').getAttribute('aria-invalid')).toBe('true');
    expect(onVerified).not.toHaveBeenCalled();
    await typeCode(root, '222222');
    expect(onVerified).toHaveBeenCalledOnce();
  });

  it('asks for a new code when this one expired', async () => {
    const { ui } = setup(Date.now() - 1000);
    serve(() => coded(403, 'VERIFICATION_CODE_EXPIRED'));
    view = await render(ui);
    await typeCode(view.container, '123456');
    expect(byTestId(view.container, 'verification-error').textContent).toBe(
      'This code has expired. Ask for a new one below.',
    );
    expect(byTestId<HTMLButtonElement>(view.container, 'verification-resend').disabled).toBe(false);
  });

  it('tells how long to wait when rate limited, and blocks the button meanwhile', async () => {
    const { ui } = setup();
    serve(() => coded(429, 'RATE_LIMITED', { details: { retryAfterSeconds: 90 } }));
    view = await render(ui);
    await typeCode(view.container, '123456');
    expect(byTestId(view.container, 'verification-error').textContent).toBe(
      `Too many attempts. Try again in ${expectDuration(90)}.`,
    );
    expect(byTestId<HTMLButtonElement>(view.container, 'verification-submit').disabled).toBe(true);
  });

  it('counts down before a new code may be asked for, then sends one', async () => {
    const { ui, onResent } = setup(Date.now() + 42_000);
    const fetchMock = serve((url) =>
      url.pathname.endsWith('/resend')
        ? json({ sentTo: 'me@example.com', retryAfterSeconds: 60 }, 202)
        : json({}),
    );
    view = await render(ui);
    const resend = byTestId<HTMLButtonElement>(view.container, 'verification-resend');
    expect(resend.disabled).toBe(true);
    expect(resend.textContent).toBe(`Send a new code in ${expectDuration(42)}`);
    await view.rerender(
      <SenderVerification
        transferId={ID}
        uploadToken="tok"
        email="me@example.com"
        purpose="send"
        resendAvailableAt={Date.now() - 1}
        onVerified={() => undefined}
        onResent={onResent}
      />,
    );
    expect(resend.disabled).toBe(false);
    await click(resend);
    await flush();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(`/api/transfer/transfers/${ID}/sender-verification/resend`);
    expect(init.method).toBe('POST');
    expect(onResent).toHaveBeenCalledWith(60);
    expect(byTestId(view.container, 'verification-resend-status').textContent).toBe(
      'A new code is on its way to me@example.com. The previous one no longer works.',
    );
  });

  it('shows the wait when a new code is asked for too soon', async () => {
    const { ui, onResent } = setup(Date.now() - 1);
    serve(() => coded(429, 'RATE_LIMITED', {}, { 'Retry-After': '30' }));
    view = await render(ui);
    await click(byTestId(view.container, 'verification-resend'));
    await flush();
    expect(onResent).not.toHaveBeenCalled();
    expect(byTestId(view.container, 'verification-resend-status').textContent).toBe(
      `A new code can be sent in ${expectDuration(30)}.`,
    );
    expect(byTestId<HTMLButtonElement>(view.container, 'verification-resend').disabled).toBe(true);
  });

  it('takes a transfer verified elsewhere (409) as verified, without a proof', async () => {
    const { ui, onVerified } = setup();
    serve((url) =>
      url.pathname.endsWith('/upload-state') ? json(verified.transfer) : coded(409, 'CONFLICT'),
    );
    view = await render(ui);
    await typeCode(view.container, '123456');
    expect(onVerified).toHaveBeenCalledWith({ transfer: verified.transfer, proof: null });
  });
});

/** The app's own duration format (Intl), so the test does not depend on the ICU version's spelling. */
function expectDuration(seconds: number): string {
  const unit = (value: number, name: string) =>
    new Intl.NumberFormat('en', { style: 'unit', unit: name, unitDisplay: 'narrow' }).format(value);
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  if (m === 0) return unit(s, 'second');
  return s > 0 ? `${unit(m, 'minute')} ${unit(s, 'second')}` : unit(m, 'minute');
}
