import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { initI18n } from './i18n';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/uploader.css';
import './styles/downloader.css';
import './styles/s1.css';
import './styles/auth.css';

initI18n();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
