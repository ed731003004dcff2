import { initI18n } from '../i18n';
import en from '../i18n/locales/en.json';
import { lazySchema } from '../lib/schemas';

// React's act() warns unless the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Tests read English text; the shared i18next instance is initialised once, as main.tsx does (English given
// at once; another language is loaded on demand as in the app).
await initI18n(undefined, 'en', { en });

// Parts the app fetches on demand as chunks of their own (the signed-in header menu, the main layout's panel,
// the uploader's later steps, the upload engine, the answers' schemas): loaded here once, so that a test's first
// render of them is drawn within the same few rounds of settle() as the rest of the page.
await Promise.all([
  lazySchema('AuthState')(),
  import('../features/auth/signed-in-menu'),
  import('../features/dashboard/main-panel'),
  import('../features/uploader/options-step'),
  import('../features/uploader/send-step'),
  import('../features/uploader/sent-step'),
  import('../features/uploader/create-request'),
  import('../features/uploader/upload-engine'),
  import('../features/uploader/tus-transport'),
  import('../features/uploader/hash/hasher'),
]);
