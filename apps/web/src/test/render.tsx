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
