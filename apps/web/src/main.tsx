import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { isWidgetPath, widgetLocale } from './features/widget/widget-embedding';
import { initI18n } from './i18n';
import { textsReady } from './i18n/texts';
import { createAppRouter } from './router';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/uploader.css';
import './styles/downloader.css';
import './styles/s1.css';
import './styles/auth.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The widget speaks its embedder's `?lang=` from the first paint: only that language is fetched.
const lang = isWidgetPath(window.location.pathname)
  ? widgetLocale(new URLSearchParams(window.location.search).get('lang'), navigator.languages ?? [])
  : undefined;

// The page is drawn once its language is loaded (its own small chunk), so no key ever shows untranslated. The
// router is made first: it starts fetching the page's route chunks at once, alongside the language.
const loading = initI18n(undefined, lang).then(textsReady);
const router = createAppRouter();
void loading.then(() =>
  createRoot(container).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  ),
);
