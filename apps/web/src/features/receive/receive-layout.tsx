import {
  type CSSProperties,
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { LogoMark } from '../../components/icons';
import { LanguageSwitcher } from '../../components/language-switcher';
import { useScrollToTop } from '../../hooks/use-scroll-to-top';
import { PRODUCT_NAME } from '../../lib/config';
import { textOn } from '../../lib/contrast';
import { useAuth } from '../auth/auth-context';
import { SignBackInDialog } from '../auth/sign-back-in-dialog';
import { UserMenu } from '../auth/user-menu';
import { ToastArea } from '../toasts/toast-area';
import './receive.css';

/** The spec §3 theme colours of a receive point, with its defaults filled in. */
export interface PageTheme {
  backgroundColor: string;
  actionColor: string;
  startbtnColor: string;
  /** The owner's logo (their account or team theme), in place of Ferry's mark and name; null: none. */
  logoURL?: string | null;
}

const ThemeContext = createContext<(theme: PageTheme | null) => void>(() => undefined);

/** Lets a receive page colour the whole frame with its point's theme (null: the default colours). */
export function useSetPageTheme(): (theme: PageTheme | null) => void {
  return useContext(ThemeContext);
}

/** `#RGB` or `#RRGGBB` made darker by `amount` (0–1): the gradient's second stop and hover colours. */
export function darken(hex: string, amount: number): string {
  const full = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex;
  const value = Number.parseInt(full.slice(1), 16);
  if (!/^#[0-9a-f]{6}$/i.test(full) || Number.isNaN(value)) return hex;
  const channel = (shift: number) => Math.round(((value >> shift) & 255) * (1 - amount));
  return `#${[16, 8, 0].map((s) => channel(s).toString(16).padStart(2, '0')).join('')}`;
}

/** The theme as the design tokens of base.css, set on the frame (CSSOM, which the CSP allows). */
export function themeStyle(theme: PageTheme | null): CSSProperties | undefined {
  if (!theme) return undefined;
  return {
    '--color-primary': theme.backgroundColor,
    '--color-primary-dark': darken(theme.backgroundColor, 0.3),
    '--color-action': theme.actionColor,
    '--color-action-hover': darken(theme.actionColor, 0.15),
    '--color-start': theme.startbtnColor,
    '--color-start-hover': darken(theme.startbtnColor, 0.12),
    // The owner's start colour with whichever of white or black reads better on it (and on its hover).
    '--color-start-text': textOn(theme.startbtnColor),
    '--color-focus': theme.startbtnColor,
  } as CSSProperties;
}

/**
 * The frame of the public receive pages (/r/{id}, /i/{slug}, /push). Signed in, it is the app's usual frame
 * (home link, user menu). Signed out it is the limited layout of spec §2: the product's name without a way
 * into the rest of the app, the language, the page — no sign-in prompt, no promotion. The page may colour it
 * with its point's theme.
 */
export function ReceiveLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const auth = useAuth();
  useScrollToTop();
  const [theme, setTheme] = useState<PageTheme | null>(null);
  const set = useCallback((next: PageTheme | null) => setTheme(next), []);
  const style = useMemo(() => themeStyle(theme), [theme]);
  const limited = !auth.user;
  const brand = theme?.logoURL ? (
    <img className="brand-logo" src={theme.logoURL} alt="" data-testid="receive-logo" />
  ) : (
    <>
      <LogoMark className="brand-mark" />
      <span className="brand-name">{PRODUCT_NAME}</span>
    </>
  );
  return (
    <ThemeContext.Provider value={set}>
      <div
        className={`app receive-frame${limited ? ' is-limited' : ''}`}
        style={style}
        data-testid={limited ? 'limited-layout' : 'full-layout'}
      >
        <a className="skip-link" href="#main">
          {t('common:skip_to_content')}
        </a>
        <header className="app-header">
          {limited ? (
            <span className="brand">{brand}</span>
          ) : (
            <Link to="/" className="brand" aria-label={t('common:home_link', { product: PRODUCT_NAME })}>
              {brand}
            </Link>
          )}
          <div className="header-actions">
            <LanguageSwitcher />
            {!limited && <UserMenu />}
          </div>
        </header>
        <main id="main" className="app-main" tabIndex={-1}>
          {children ?? <Outlet />}
        </main>
        <footer className="app-footer">
          <p>
            {limited
              ? t('uploader:receive.powered_by', { product: PRODUCT_NAME })
              : t('common:footer', { product: PRODUCT_NAME, year: new Date().getFullYear() })}
          </p>
        </footer>
        <ToastArea />
        {!limited && <SignBackInDialog />}
      </div>
    </ThemeContext.Provider>
  );
}
