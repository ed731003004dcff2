import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi, noContent } from '../../test/api-mock';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { DomainsPanel } from './domains-panel';

const UID = 'mgr_1';
const PATH = `/api/user/users/${UID}/domains`;
const record = {
  name: '_ferry-challenge.files.acme.com',
  type: 'TXT',
  value: 'ferry-verify=tok123',
};
const custom = (status: 'pending' | 'verified' | 'suspended') => ({
  domain: 'files.acme.com',
  status,
  record,
  url: 'https://files.acme.com',
  verifiedAt: status === 'verified' ? '2030-01-01T10:00:00.000Z' : null,
  lastCheckedAt: null,
  missingSince: null,
});
const view = (overrides: Record<string, unknown> = {}) => ({
  baseDomain: 'ferry.example',
  subdomain: null,
  customDomains: [],
  ...overrides,
});
const claimed = view({
  subdomain: { name: 'acme', host: 'acme.ferry.example', url: 'https://acme.ferry.example' },
});

describe('the domains panel', () => {
  let shown: Rendered;
  afterEach(async () => {
    await shown?.unmount();
    vi.unstubAllGlobals();
  });
  async function open() {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    shown = await render(
      <QueryClientProvider client={client}>
        <DomainsPanel ownerId={UID} />
      </QueryClientProvider>,
    );
    await settle();
    return shown.container;
  }

  it('claims a subdomain, lowercasing as one types, and shows the address it answers at', async () => {
    const api = mockApi({
      [`GET ${PATH}`]: () => json(view()),
      [`PUT ${PATH}/subdomain`]: [() => coded(409, 'HOST_TAKEN'), () => json(claimed)],
    });
    const root = await open();
    expect(root.textContent).toContain('.ferry.example');
    await typeInto(byTestId(root, 'subdomain-name'), 'ACME');
    expect(byTestId<HTMLInputElement>(root, 'subdomain-name').value).toBe('acme');
    await click(byTestId(root, 'subdomain-save'));
    await settle();
    expect(api.to(`PUT ${PATH}/subdomain`)[0]?.body).toEqual({ name: 'acme' });
    await click(byTestId(root, 'subdomain-save'));
    await settle();
    const address = byTestId(root, 'subdomain-address');
    expect(address.textContent).toBe('Your address: acme.ferry.example');
    expect(address.querySelector('a')?.getAttribute('href')).toBe('https://acme.ferry.example');
  });

  it('says which rule a refused name breaks, next to the field', async () => {
    mockApi({
      [`GET ${PATH}`]: () => json(view()),
      [`PUT ${PATH}/subdomain`]: () =>
        json(
          {
            status: 400,
            error: 'Bad Request',
            message: 'refused',
            codes: ['VALIDATION_FAILED'],
            details: { field: 'subdomainName', problem: 'reserved' },
          },
          400,
        ),
    });
    const root = await open();
    await typeInto(byTestId(root, 'subdomain-name'), 'www');
    await click(byTestId(root, 'subdomain-save'));
    await settle();
    const input = byTestId(root, 'subdomain-name');
    const error = root.querySelector('.field-error');
    expect(error?.textContent).toBe('This name is reserved. Choose another one.');
    expect(input.getAttribute('aria-describedby')).toContain(error!.id);
  });

  it('adds a custom domain, shows its TXT record to copy, and verifies it', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const api = mockApi({
      [`GET ${PATH}`]: [
        () => json(view()),
        () => json(view({ customDomains: [custom('pending')] })),
        () => json(view({ customDomains: [custom('pending')] })),
        () => json(view({ customDomains: [custom('verified')] })),
      ],
      [`POST ${PATH}`]: () => json(custom('pending'), 201),
      [`POST ${PATH}/files.acme.com/verify`]: [
        () =>
          json(
            {
              status: 409,
              error: 'Conflict',
              message: 'not found',
              codes: ['DOMAIN_NOT_PROVEN'],
              details: { record },
            },
            409,
          ),
        () => json(custom('verified')),
      ],
    });
    const root = await open();
    expect(byTestId(root, 'custom-domains-empty').textContent).toBe('No custom domain yet.');
    await typeInto(byTestId(root, 'custom-domain-input'), 'files.acme.com');
    await click(byTestId(root, 'custom-domain-add'));
    await settle();
    expect(api.to(`POST ${PATH}`)[0]?.body).toEqual({ domain: 'files.acme.com' });
    const item = byTestId(root, 'custom-domain-files-acme-com');
    expect(byTestId(item, 'custom-domain-status').textContent).toBe('Waiting for proof');
    expect(byTestId(item, 'custom-domain-record-name').textContent).toBe('_ferry-challenge.files.acme.com');
    expect(byTestId(item, 'custom-domain-record-value').textContent).toBe('ferry-verify=tok123');
    const copyValue = [...item.querySelectorAll('button')].filter((b) => b.textContent === 'Copy')[1]!;
    await click(copyValue);
    await settle();
    expect(writeText).toHaveBeenCalledWith('ferry-verify=tok123');

    await click(byTestId(item, 'custom-domain-verify'));
    await settle();
    expect(item.querySelector('[role="alert"]')?.textContent).toBe(
      'The DNS record proving this domain was not found yet.',
    );
    await click(byTestId(root, 'custom-domain-verify'));
    await settle();
    expect(byTestId(root, 'custom-domain-status').textContent).toBe('Verified');
    expect(root.querySelector('[data-testid="custom-domain-verify"]')).toBeNull();
  });

  it('removes a custom domain', async () => {
    const api = mockApi({
      [`GET ${PATH}`]: [() => json(view({ customDomains: [custom('suspended')] })), () => json(view())],
      [`DELETE ${PATH}/files.acme.com`]: () => noContent(),
    });
    const root = await open();
    expect(byTestId(root, 'custom-domain-status').textContent).toBe('Suspended: record missing');
    await click(byTestId(root, 'custom-domain-remove'));
    await settle();
    expect(api.to(`DELETE ${PATH}/files.acme.com`)).toHaveLength(1);
    expect(byTestId(root, 'custom-domains-empty')).toBeTruthy();
  });

  it('says so when the server serves no subdomains', async () => {
    mockApi({ [`GET ${PATH}`]: () => json({ baseDomain: null, subdomain: null, customDomains: [] }) });
    const root = await open();
    expect(byTestId(root, 'domains-disabled').textContent).toBe(
      'Subdomains and custom domains are not enabled on this server.',
    );
  });
});
