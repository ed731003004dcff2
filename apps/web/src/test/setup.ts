import { initI18n } from '../i18n';
import en from '../i18n/locales/en.json';

// React's act() warns unless the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Tests read English text; the shared i18next instance is initialised once, as main.tsx does (English given
// at once; another language is loaded on demand as in the app).
await initI18n(undefined, 'en', { en });

// The signed-in header menu is its own chunk (features/auth/user-menu.tsx): loaded here once, so that a test's
// first signed-in render draws it within the same few rounds of settle() as the rest of the page.
await import('../features/auth/signed-in-menu');
