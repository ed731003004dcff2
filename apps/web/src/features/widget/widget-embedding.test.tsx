import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Rendered, render } from '../../test/render';
import { isWidgetPath, useReportHeight, widgetLocale } from './widget-embedding';

function Sized() {
  const ref = useRef<HTMLDivElement>(null);
  useReportHeight(ref);
  return <div ref={ref}>widget</div>;
}

describe('widget embedding', () => {
  let view: Rendered | null = null;
  afterEach(async () => {
    await view?.unmount();
    view = null;
    vi.unstubAllGlobals();
  });

  it('takes the language of ?lang= when translated, else the browser’s, else English', () => {
    expect(widgetLocale('fr', ['en-US'])).toBe('fr');
    expect(widgetLocale('FR-ca', ['en-US'])).toBe('fr');
    expect(widgetLocale('tlh', ['fr-CH', 'en'])).toBe('fr');
    expect(widgetLocale('ja', ['en-US'])).toBe('jp');
    expect(widgetLocale('jp', ['en-US'])).toBe('jp');
    expect(widgetLocale(null, ['es-ES'])).toBe('es');
    expect(widgetLocale(null, ['tlh'])).toBe('en');
  });

  it('knows the widget page (the one framed page) from every other', () => {
    expect(isWidgetPath('/widgets/AbCdEfGhIjKlMnOp')).toBe(true);
    expect(isWidgetPath('/widgets/AbCdEfGhIjKlMnOp/')).toBe(true);
    expect(isWidgetPath('/fr/widgets/AbCdEfGhIjKlMnOp')).toBe(true);
    expect(isWidgetPath('/widgets/')).toBe(false);
    expect(isWidgetPath('/widgets/a/b')).toBe(false);
    expect(isWidgetPath('/dashboard/admin/inboxes')).toBe(false);
  });

  it('tells the embedding page its height when framed, in the message /widget.js hears', async () => {
    const postMessage = vi.fn();
    const observers: Array<() => void> = [];
    vi.stubGlobal('parent', { postMessage });
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          observers.push(callback);
        }
        observe() {}
        disconnect() {}
      },
    );
    let height = 420.2;
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(
      () => ({ height }) as DOMRect,
    );
    view = await render(<Sized />);
    expect(postMessage).toHaveBeenLastCalledWith({ type: 'ferry:widget-height', height: 421 }, '*');
    height = 640;
    for (const notify of observers) notify();
    expect(postMessage).toHaveBeenLastCalledWith({ type: 'ferry:widget-height', height: 640 }, '*');
    for (const notify of observers) notify();
    expect(postMessage).toHaveBeenCalledTimes(2);
  });

  it('says nothing when not framed', async () => {
    const postMessage = vi.spyOn(window, 'postMessage');
    view = await render(<Sized />);
    expect(postMessage).not.toHaveBeenCalled();
  });
});
