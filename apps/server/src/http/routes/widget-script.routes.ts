import type { FastifyPluginAsync } from 'fastify';

/**
 * The one-line embed (`<script src="{origin}/widget.js" data-ferry-widget="{widgetId}" async>`): it puts the
 * widget's iframe (`/widgets/{widgetId}`, the only page other sites may frame) right after itself. Optional
 * attributes: `data-height` (default 560px), `data-max-width` (480px), `data-title`. The widget page may ask for
 * another height with `postMessage({ type: "ferry:widget-height", height })`; only messages from Ferry's own
 * origin and from that iframe are heard.
 */
export const WIDGET_SCRIPT = `(function () {
  'use strict';
  var scripts = document.querySelectorAll('script[data-ferry-widget]');
  for (var i = 0; i < scripts.length; i++) {
    var s = scripts[i];
    var id = s.getAttribute('data-ferry-widget') || '';
    if (s.getAttribute('data-ferry-done') || !/^[A-Za-z0-9]{16}$/.test(id)) continue;
    s.setAttribute('data-ferry-done', '1');
    var origin = new URL(s.src, window.location.href).origin;
    var frame = document.createElement('iframe');
    frame.src = origin + '/widgets/' + id;
    frame.title = s.getAttribute('data-title') || 'Upload files';
    frame.setAttribute('loading', 'lazy');
    frame.style.border = '0';
    frame.style.width = '100%';
    frame.style.maxWidth = s.getAttribute('data-max-width') || '480px';
    frame.style.height = s.getAttribute('data-height') || '560px';
    s.parentNode.insertBefore(frame, s.nextSibling);
    (function (frame, origin) {
      window.addEventListener('message', function (event) {
        var data = event.data;
        if (event.origin !== origin || event.source !== frame.contentWindow || !data) return;
        if (data.type === 'ferry:widget-height' && typeof data.height === 'number' && data.height > 0 && data.height < 5000)
          frame.style.height = Math.ceil(data.height) + 'px';
      });
    })(frame, origin);
  }
})();
`;

export const widgetScriptRoutes: FastifyPluginAsync = async (app) => {
  app.get('/widget.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(WIDGET_SCRIPT),
  );
};
