/*
 * Spec §3 default theme colours, zod-free: every page draws with them before (or without) a theme, and a page
 * that only needs them does not load the theme's schemas (api/theme.ts, api/receive.ts re-export them).
 */

/** Spec §3 default colours, used for any that is missing. */
export const DEFAULT_THEME_COLORS: Readonly<{
  backgroundColor: string;
  actionColor: string;
  startbtnColor: string;
}> = Object.freeze({ backgroundColor: '#4052B5', actionColor: '#3F51B5', startbtnColor: '#FF6208' });

/** The receive pages' and widgets' defaults (spec §3 ReceiveTheme): the same colours. */
export const DEFAULT_RECEIVE_THEME: Readonly<{
  backgroundColor: string;
  actionColor: string;
  startbtnColor: string;
}> = Object.freeze({ backgroundColor: '#4052B5', actionColor: '#3F51B5', startbtnColor: '#FF6208' });
