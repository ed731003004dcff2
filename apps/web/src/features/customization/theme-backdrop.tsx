import { type ReactNode, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useTheme } from './theme-context';
import './customization.css';

/** Spec §2 pages that show the owner's wallpapers: the uploader, download pages, request and inbox pages. */
export function showsWallpaper(pathname: string): boolean {
  const path = pathname.replace(/^\/(?:[a-z]{2,3})(?=\/|$)/, '') || '/';
  return /^\/(?:$|request-files\/?$|dl\/|r\/|i\/|push\/?$)/.test(path);
}

/** Seconds each wallpaper stays before the next one. */
export const WALLPAPER_SECONDS = 12;

function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/**
 * The owner's background behind the page: a muted looping video where it can play (not for people who asked for
 * less motion), else the wallpapers in turn. Decorative: hidden from assistive technology.
 */
export function ThemeBackdrop() {
  const { resolved } = useTheme();
  const { pathname } = useLocation();
  const [index, setIndex] = useState(0);
  const wallpapers = resolved.wallpaperURLs;
  const still = prefersReducedMotion();
  useEffect(() => {
    setIndex(0);
    if (wallpapers.length < 2 || still) return;
    const timer = window.setInterval(
      () => setIndex((i) => (i + 1) % wallpapers.length),
      WALLPAPER_SECONDS * 1000,
    );
    return () => window.clearInterval(timer);
  }, [wallpapers, still]);
  if (!showsWallpaper(pathname)) return null;
  const video = still ? null : resolved.backgroundVideoURL;
  const wallpaper = wallpapers[index % Math.max(1, wallpapers.length)] ?? null;
  if (!video && !wallpaper) return null;
  return (
    <div className="theme-backdrop" aria-hidden="true" data-testid="theme-backdrop">
      {video ? (
        <video className="theme-backdrop-media" src={video} autoPlay muted loop playsInline />
      ) : (
        <img
          className="theme-backdrop-media"
          src={wallpaper ?? undefined}
          alt=""
          data-testid="theme-wallpaper"
        />
      )}
    </div>
  );
}

/** The owner's logo in the header, or Ferry's mark. */
export function ThemeLogo({ fallback }: { fallback: ReactNode }) {
  const { resolved } = useTheme();
  if (!resolved.logoURL) return <>{fallback}</>;
  return <img className="brand-logo" src={resolved.logoURL} alt="" data-testid="theme-logo" />;
}
