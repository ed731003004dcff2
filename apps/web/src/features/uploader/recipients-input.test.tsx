import { act, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { byTestId, click, type Rendered, render } from '../../test/render';
import { RecipientsInput } from './recipients-input';

let latest: { recipients: string[]; draft: string } = { recipients: [], draft: '' };

function Harness({ initial = [], max = 10 }: { initial?: string[]; max?: number }) {
  const [state, setState] = useState({ recipients: initial, draft: '' });
  latest = state;
  return (
    <RecipientsInput
      recipients={state.recipients}
      draft={state.draft}
      max={max}
      missing={false}
      onChange={(recipients, draft) => setState({ recipients, draft })}
    />
  );
}

function input(root: HTMLElement) {
  return byTestId<HTMLInputElement>(root, 'recipients-input');
}

async function type(root: HTMLElement, value: string) {
  const element = input(root);
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(element, value);
  await act(async () => {
    element.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function key(root: HTMLElement, name: string) {
  await act(async () => {
    input(root).dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }));
  });
}

async function paste(root: HTMLElement, text: string) {
  const event = new Event('paste', { bubbles: true, cancelable: true }) as Event & {
    clipboardData: { getData: (type: string) => string };
  };
  event.clipboardData = { getData: (type) => (type === 'text' ? text : '') };
  await act(async () => {
    input(root).dispatchEvent(event);
  });
  return event;
}

function chips(root: HTMLElement): string[] {
  return [...root.querySelectorAll('[data-testid="recipient-chip"] .chip-text')].map(
    (e) => e.textContent ?? '',
  );
}

function error(root: HTMLElement): string | null {
  return root.querySelector('[data-testid="recipients-error"]')?.textContent ?? null;
}

describe('RecipientsInput', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
  });

  it('turns an address into a chip when a separator is typed or Enter is pressed', async () => {
    view = await render(<Harness />);
    const root = view.container;
    await type(root, 'ann@example.com,');
    expect(chips(root)).toEqual(['ann@example.com']);
    expect(input(root).value).toBe('');
    await type(root, 'bob@example.com');
    expect(chips(root)).toEqual(['ann@example.com']);
    await key(root, 'Enter');
    expect(chips(root)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(byTestId(root, 'recipients-count').textContent).toBe('2 / 10');
    expect(latest).toEqual({ recipients: ['ann@example.com', 'bob@example.com'], draft: '' });
  });

  it('takes a pasted list whole, keeps what is not an address in the field and says so', async () => {
    view = await render(<Harness />);
    const root = view.container;
    const event = await paste(
      root,
      'ann@example.com; Bob <bob@example.com>\nnot-an-address carl@example.com',
    );
    expect(event.defaultPrevented).toBe(true);
    expect(chips(root)).toEqual(['ann@example.com', 'bob@example.com', 'carl@example.com']);
    expect(input(root).value).toBe('not-an-address');
    expect(input(root).getAttribute('aria-invalid')).toBe('true');
    expect(error(root)).toBe('“not-an-address” is not a valid e-mail address.');
  });

  it('ignores duplicates, whatever their case, and tells the sender', async () => {
    view = await render(<Harness initial={['ann@example.com']} />);
    const root = view.container;
    await paste(root, 'ANN@example.com, bob@example.com');
    expect(chips(root)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(byTestId(root, 'recipients-duplicates').textContent).toBe(
      'ANN@example.com is already in the list.',
    );
    expect(error(root)).toBeNull();
  });

  it('removes the last chip with Backspace in the empty field, and a chip with its button', async () => {
    view = await render(<Harness initial={['ann@example.com', 'bob@example.com', 'carl@example.com']} />);
    const root = view.container;
    await key(root, 'Backspace');
    expect(chips(root)).toEqual(['ann@example.com', 'bob@example.com']);
    // Backspace while typing edits the text, it does not remove a chip.
    await type(root, 'x');
    await key(root, 'Backspace');
    expect(chips(root)).toEqual(['ann@example.com', 'bob@example.com']);
    await type(root, '');
    const remove = root.querySelector<HTMLButtonElement>('button[aria-label="Remove ann@example.com"]');
    expect(remove).not.toBeNull();
    await click(remove as HTMLButtonElement);
    expect(chips(root)).toEqual(['bob@example.com']);
    expect(document.activeElement).toBe(input(root));
  });

  it('accepts at most the plan limit and explains why the rest stays out', async () => {
    const nine = Array.from({ length: 9 }, (_, i) => `r${i}@example.com`);
    view = await render(<Harness initial={nine} />);
    const root = view.container;
    await paste(root, 'ten@example.com eleven@example.com');
    expect(chips(root)).toHaveLength(10);
    expect(chips(root).at(-1)).toBe('ten@example.com');
    expect(input(root).value).toBe('eleven@example.com');
    expect(error(root)).toBe('You can send to 10 recipients at most. Remove one to add another.');
    expect(byTestId(root, 'recipients-count').className).toContain('is-full');
  });

  it('adds what was typed when the field is left', async () => {
    view = await render(<Harness />);
    const root = view.container;
    await type(root, 'ann@example.com');
    await act(async () => {
      input(root).dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    });
    expect(chips(root)).toEqual(['ann@example.com']);
  });
});
