import type { ChosenPlan } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listOidcProviders, oidcStartUrl } from '../../lib/auth-api';
import { deviceId } from '../../lib/device-id';
import { ProviderMark } from './provider-icons';
import './oidc-providers.css';

/** The codes the server's OIDC callback ends on as `/signin?error=<code>` (docs/api.md). */
export const OIDC_ERROR_CODES = [
  'state_mismatch',
  'cancelled',
  'provider_error',
  'provider_unavailable',
  'invalid_response',
  'email_not_verified',
  'email_missing',
  'max_licences',
] as const;

/** The i18n key telling what went wrong for `/signin?error=<code>`; null without a code. */
export function oidcErrorKey(code: string | null): string | null {
  if (!code) return null;
  // An operator suspended the account: the API's own message for the code says so.
  if (code === 'account_suspended') return 'errors:code.ACCOUNT_SUSPENDED';
  // The member's team does not allow this provider (its authentication policy).
  if (code === 'method_not_allowed') return 'errors:code.SIGN_IN_METHOD_NOT_ALLOWED';
  return (OIDC_ERROR_CODES as readonly string[]).includes(code)
    ? `auth:oidc_error_${code}`
    : 'auth:oidc_error_unknown';
}

/**
 * "Continue with Google / Microsoft / Apple / <issuer>": one link per provider the server lists. A plain
 * navigation to the server's start URL: the provider sends the browser back to the server's callback, which sets
 * the session cookie and lands on `next`, where the app loads the signed-in state as on any start. On /register,
 * `plan` (from the page's query) goes along, so that a provider sign-up keeps the plan as a password one does.
 */
export function OidcProviders({
  next,
  staySignedIn = false,
  intent,
  plan,
}: {
  next: string;
  staySignedIn?: boolean;
  intent: 'signin' | 'register';
  plan?: ChosenPlan;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const providers = useQuery({
    queryKey: ['oidc-providers'],
    queryFn: ({ signal }) => listOidcProviders(signal),
    staleTime: 5 * 60_000,
  });
  // The device id goes with the sign-in, so that the session is listed with this device.
  const [device] = useState(() => deviceId());
  // Optional: while loading or when the list cannot be had, the e-mail form is all there is.
  if (!providers.data?.length) return null;
  return (
    <section className="oidc" aria-labelledby={titleId} data-testid="oidc-providers">
      <p className="oidc-divider" id={titleId}>
        <span>{t(intent === 'signin' ? 'auth:oidc_title_signin' : 'auth:oidc_title_register')}</span>
      </p>
      <ul className="oidc-list">
        {providers.data.map((provider) => (
          <li key={provider.name}>
            <a
              className="button button-secondary button-block oidc-button"
              href={oidcStartUrl(provider.name, { next, staySignedIn, deviceId: device, plan })}
              data-testid="oidc-provider"
              data-provider={provider.name}
            >
              <ProviderMark name={provider.name} />
              <span>
                {t(intent === 'signin' ? 'auth:oidc_continue' : 'auth:oidc_register', {
                  provider: provider.label,
                })}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
