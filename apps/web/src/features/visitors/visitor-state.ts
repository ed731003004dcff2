import { useState } from 'react';
import { readSiteConfig, type SiteConfig } from '../../lib/site-config';
import { useAuth } from '../auth/auth-context';

/** The server's site settings for this page (read once per mount; they do not change while it is open). */
export function useSiteConfig(): SiteConfig {
  const [config] = useState(readSiteConfig);
  return config;
}

/**
 * A visitor known to be signed out: GET /api/auth/me answered without a user. While it is on its way (or if it
 * failed) nobody counts as signed out, so a signed-in user never sees the visitors' elements flash by.
 */
export function useSignedOut(): boolean {
  const { status, user } = useAuth();
  return status === 'ready' && user === null;
}
