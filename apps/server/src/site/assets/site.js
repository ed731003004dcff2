// The public site's one script, also loaded by the app's pages: the cookie-consent choice (the only thing that may
// load a non-essential script) and the site's contact forms. Plain JavaScript, no dependencies.
(() => {
  const NAME = 'ferry_consent';
  const KEEP_SECONDS = 180 * 86400;
  const box = document.getElementById('ferry-consent');
  const analytics = box ? box.getAttribute('data-analytics') : '';

  const choice = () => {
    const match = /(?:^|;\s*)ferry_consent=(all|necessary)(?:;|$)/.exec(document.cookie);
    return match ? match[1] : null;
  };

  const loadAnalytics = () => {
    if (!analytics || document.getElementById('ferry-analytics')) return;
    const script = document.createElement('script');
    script.id = 'ferry-analytics';
    script.src = analytics;
    script.async = true;
    document.head.appendChild(script);
  };

  const showStatus = () => {
    const current = choice();
    const key =
      current === 'all'
        ? 'data-label-all'
        : current === 'necessary'
          ? 'data-label-necessary'
          : 'data-label-none';
    for (const el of document.querySelectorAll('[data-consent-status]'))
      el.textContent = el.getAttribute(key);
  };

  const choose = (value) => {
    const loaded = !!document.getElementById('ferry-analytics');
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    // biome-ignore lint/suspicious/noDocumentCookie: one plain first-party cookie, read back by the server too; the Cookie Store API is not in every browser
    document.cookie = `${NAME}=${value}; Max-Age=${KEEP_SECONDS}; Path=/; SameSite=Lax${secure}`;
    if (box) box.hidden = true;
    showStatus();
    if (value === 'all') loadAnalytics();
    else if (loaded) location.reload(); // a script already running cannot be unloaded: start again without it
  };

  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const pick = target?.closest('[data-consent]');
    if (pick) choose(pick.getAttribute('data-consent'));
    const open = target?.closest('[data-consent-open]');
    if (open && box) {
      box.hidden = false;
      const first = box.querySelector('button');
      if (first) first.focus();
    }
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && box && !box.hidden && choice()) box.hidden = true;
  });

  const current = choice();
  if (current === 'all') loadAnalytics();
  else if (!current && box) box.hidden = false;
  showStatus();

  // Contact forms: sent as JSON to the API, the answer said in the page's words.
  const ENDPOINTS = { sales: '/api/sales/enterprise-contact', contact: '/api/sales/contact' };
  for (const form of document.querySelectorAll('form[data-site-form]')) {
    const status = form.querySelector('.form-status');
    const say = (state, text) => {
      status.setAttribute('data-state', state);
      status.textContent = text;
    };
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!form.reportValidity()) return;
      const data = {};
      for (const [key, value] of new FormData(form)) {
        const text = String(value).trim();
        if (text === '') continue;
        data[key] = key === 'teamSize' ? Number(text) : text;
      }
      data.locale = form.getAttribute('data-locale');
      const button = form.querySelector('button[type=submit]');
      button.disabled = true;
      say('sending', form.getAttribute('data-sending'));
      try {
        const response = await fetch(ENDPOINTS[form.getAttribute('data-site-form')], {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(data),
        });
        if (response.ok) {
          form.reset();
          say('sent', form.getAttribute('data-sent'));
        } else {
          say('error', form.getAttribute(response.status === 429 ? 'data-ratelimited' : 'data-error'));
        }
      } catch {
        say('error', form.getAttribute('data-error'));
      } finally {
        button.disabled = false;
      }
    });
  }
})();
