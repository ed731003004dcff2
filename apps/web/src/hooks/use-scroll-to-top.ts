import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** The page scrolls to the top after each route change (spec §2); hash changes (#S1/#S2) do not count. */
export function useScrollToTop(): void {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: running on each new pathname is the point
  useEffect(() => {
    if (typeof window.scrollTo === 'function') window.scrollTo(0, 0);
  }, [pathname]);
}
