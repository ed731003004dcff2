import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

/** Minimal React testing helper (no extra library): render into a detached container, act-wrapped. */
export interface Rendered {
  container: HTMLElement;
  rerender(ui: ReactNode): Promise<void>;
  unmount(): Promise<void>;
}

export async function render(ui: ReactNode): Promise<Rendered> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  let root: Root | null = null;
  await act(async () => {
    root = createRoot(container);
    root.render(ui);
  });
  return {
    container,
    async rerender(next) {
      await act(async () => root?.render(next));
    },
    async unmount() {
      await act(async () => root?.unmount());
      container.remove();
    },
  };
}

export function byTestId<T extends HTMLElement = HTMLElement>(root: ParentNode, id: string): T {
  const element = root.querySelector<T>(`[data-testid="${id}"]`);
  if (!element) throw new Error(`no element with data-testid="${id}"`);
  return element;
}

export async function click(element: Element): Promise<void> {
  await act(async () => {
    (element as HTMLElement).click();
  });
}

/** Lets pending promises and React updates settle. */
export async function flush(): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/** Types a value into an input or textarea the way React sees it (value setter, then an input event). */
export async function typeInto(
  element: HTMLInputElement | HTMLTextAreaElement,
  value: string,
): Promise<void> {
  const proto =
    element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(element, value);
  await act(async () => {
    element.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Lets fetch mocks answer and React re-render, several rounds (a chain of calls). */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await flush();
}

/** Waits (real timers) until `probe` is true, flushing React in between. */
export async function until(probe: () => boolean, what = 'a condition', timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await flush();
  }
}
