import { TOAST_AUTO_CLOSE_MS } from '@ferry/core';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { byTestId, click, type Rendered, render } from '../../test/render';
import { ToastArea } from './toast-area';
import { MAX_VISIBLE_TOASTS, type ToastApi, ToastProvider, useToast } from './toast-context';

let api: ToastApi | null = null;
function Grab() {
  api = useToast();
  return null;
}

describe('toast area (spec §2)', () => {
  let view: Rendered;
  beforeEach(async () => {
    vi.useFakeTimers();
    view = await render(
      <ToastProvider>
        <Grab />
        <ToastArea />
      </ToastProvider>,
    );
  });
  afterEach(async () => {
    await view.unmount();
    vi.useRealTimers();
  });

  const show = (message: string) => act(() => void api?.show(message, 'error'));
  const texts = () => [...view.container.querySelectorAll('.toast-message')].map((e) => e.textContent);

  it('is a polite live region, stacks toasts and closes each after 4 s', async () => {
    const region = view.container.querySelector('[role="status"]');
    expect(region?.getAttribute('aria-live')).toBe('polite');
    await show('first');
    await act(() => vi.advanceTimersByTime(1000));
    await show('second');
    expect(texts()).toEqual(['first', 'second']);
    await act(() => vi.advanceTimersByTime(TOAST_AUTO_CLOSE_MS - 1000));
    expect(texts()).toEqual(['second']);
    await act(() => vi.advanceTimersByTime(1000));
    expect(texts()).toEqual([]);
  });

  it('can be dismissed', async () => {
    await show('bye');
    await click(byTestId(view.container, 'toast').querySelector('button') as HTMLButtonElement);
    expect(texts()).toEqual([]);
  });

  it('stays while hovered', async () => {
    await show('hold me');
    await act(() => {
      byTestId(view.container, 'toast').dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    });
    await act(() => vi.advanceTimersByTime(TOAST_AUTO_CLOSE_MS * 2));
    expect(texts()).toEqual(['hold me']);
  });

  it('keeps only the newest few in a burst', async () => {
    for (let i = 0; i < MAX_VISIBLE_TOASTS + 3; i++) await show(`n${i}`);
    expect(texts()).toHaveLength(MAX_VISIBLE_TOASTS);
    expect(texts().at(-1)).toBe(`n${MAX_VISIBLE_TOASTS + 2}`);
  });
});
