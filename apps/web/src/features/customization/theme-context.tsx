import type { Theme } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { getTheme } from '../../lib/theme-api';
import { useAuth } from '../auth/auth-context';
import {
  brandVariables,
  layerOfTheme,
  type ResolvedTheme,
  resolveLayers,
  type ThemeLayer,
} from './theme-layers';

interface ThemeContextValue {
  /** GET /api/theme as last fetched (null until then). */
  theme: Theme | null;
  /** What the page shows: a page's own layers (a download page's) in place of the theme, over the defaults. */
  resolved: ResolvedTheme;
  setPageLayers(layers: ThemeLayer[] | null): void;
}

const NONE = resolveLayers();
const ThemeContext = createContext<ThemeContextValue>({
  theme: null,
  resolved: NONE,
  setPageLayers: () => {},
});

export const THEME_QUERY_KEY = 'theme';

/**
 * Fetches the theme once at the start (and again when the signed-in account changes: on the main host the theme is
 * theirs) and applies its colours to the whole app as CSS custom properties on <html>.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  const uid = state.user?.uid ?? null;
  const query = useQuery({
    queryKey: [THEME_QUERY_KEY, uid],
    queryFn: ({ signal }) => getTheme(signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
  const [pageLayers, setPageLayers] = useState<ThemeLayer[] | null>(null);
  const theme = query.data ?? null;
  const resolved = useMemo(
    () => (pageLayers ? resolveLayers(...pageLayers) : resolveLayers(layerOfTheme(theme))),
    [pageLayers, theme],
  );
  useEffect(() => {
    if (!resolved.branded) return;
    const root = document.documentElement.style;
    const vars = brandVariables(resolved.colors);
    for (const [name, value] of Object.entries(vars)) root.setProperty(name, value);
    return () => {
      for (const name of Object.keys(vars)) root.removeProperty(name);
    };
  }, [resolved]);
  const value = useMemo(() => ({ theme, resolved, setPageLayers }), [theme, resolved]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  return useContext(ThemeContext);
}

/**
 * A page's own branding (a transfer's download page: its customization over its sender's theme) in place of the
 * site's theme while the page is shown; null leaves the site's.
 */
export function usePageThemeLayers(layers: ThemeLayer[] | null): void {
  const { setPageLayers } = useTheme();
  const key = JSON.stringify(layers);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the layers' content (key) is what matters, not their identity
  useEffect(() => {
    setPageLayers(layers);
    return () => setPageLayers(null);
  }, [key, setPageLayers]);
}
