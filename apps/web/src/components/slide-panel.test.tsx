import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeScreen, fakeScreen } from '../features/dashboard/dashboard.fixture';
import { byTestId, click, type Rendered, render } from '../test/render';
import { SlidePanel } from './slide-panel';

describe('SlidePanel (spec §2, §4)', () => {
  let view: Rendered;
  let screen: FakeScreen;
  afterEach(async () => {
    await view?.unmount();
    screen?.restore();
    vi.useRealTimers();
  });

  async function open(state: 'two_third' | 'full' | 'immersive', onClose = vi.fn()) {
    view = await render(
      <SlidePanel state={state} label="Dashboard" closeLabel="Close" onClose={onClose}>
        <p>inside</p>
      </SlidePanel>,
    );
    return { panel: byTestId(view.container, 'slide-panel'), onClose };
  }

  it.each(['two_third', 'full', 'immersive'] as const)(
    'shows the %s state as a labelled region',
    async (state) => {
      screen = fakeScreen();
      const { panel } = await open(state);
      expect(panel.dataset.state).toBe(state);
      const label = document.getElementById(panel.getAttribute('aria-labelledby') ?? '');
      expect(label?.textContent).toBe('Dashboard');
      expect(panel.textContent).toContain('inside');
      expect(byTestId(view.container, 'slide-panel-close').getAttribute('aria-label')).toBe('Close');
    },
  );

  it('takes focus when it opens', async () => {
    screen = fakeScreen();
    const { panel } = await open('two_third');
    expect(document.activeElement).toBe(panel);
  });

  it('slides out for 300 ms before it closes, and closes once however often it is clicked', async () => {
    screen = fakeScreen();
    vi.useFakeTimers();
    const { panel, onClose } = await open('two_third');
    const close = byTestId(view.container, 'slide-panel-close');
    await click(close);
    await click(close);
    expect(panel.dataset.phase).toBe('closing');
    await act(async () => {
      vi.advanceTimersByTime(299);
    });
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(panel.style.getPropertyValue('--slide-panel-duration')).toBe('300ms');
  });

  it('closes at once, without sliding, when the user asked for reduced motion', async () => {
    screen = fakeScreen({ reducedMotion: true });
    vi.useFakeTimers();
    const { panel, onClose } = await open('full');
    expect(panel.dataset.motion).toBe('reduced');
    await click(byTestId(view.container, 'slide-panel-close'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(panel.dataset.phase).toBe('open');
  });

  it('does not call onClose after it is gone', async () => {
    screen = fakeScreen();
    vi.useFakeTimers();
    const { onClose } = await open('two_third');
    await click(byTestId(view.container, 'slide-panel-close'));
    await view.unmount();
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(onClose).not.toHaveBeenCalled();
  });
});
