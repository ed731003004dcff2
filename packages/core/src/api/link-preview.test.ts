import { describe, expect, it } from 'vitest';
import {
  OPEN_GRAPH_DESCRIPTION_MAX,
  OPEN_GRAPH_TITLE_MAX,
  openGraphTextProblem,
} from '../rules/link-preview-text.js';
import { TransferOpenGraph } from './link-preview.js';
import { TransferCreateRequest } from './transfer.js';

const files = [{ name: 'a.jpg', size: 1 }];

describe('TransferOpenGraph', () => {
  it('takes a title up to 120 characters and a description up to 300, trimmed', () => {
    const parsed = TransferOpenGraph.parse({ title: '  Summer shoot  ', description: 'Raw files.' });
    expect(parsed).toEqual({ title: 'Summer shoot', description: 'Raw files.' });
    expect(TransferOpenGraph.safeParse({ title: 'x'.repeat(OPEN_GRAPH_TITLE_MAX) }).success).toBe(true);
    expect(TransferOpenGraph.safeParse({ title: 'x'.repeat(OPEN_GRAPH_TITLE_MAX + 1) }).success).toBe(false);
    expect(TransferOpenGraph.safeParse({ description: 'y'.repeat(OPEN_GRAPH_DESCRIPTION_MAX) }).success).toBe(
      true,
    );
    expect(
      TransferOpenGraph.safeParse({ description: 'y'.repeat(OPEN_GRAPH_DESCRIPTION_MAX + 1) }).success,
    ).toBe(false);
  });

  it('keeps right-to-left text, quotes, markup and emoji as they are (they are escaped when shown)', () => {
    const title = 'ملفات الصيف "<script>" 🎉';
    expect(TransferOpenGraph.parse({ title }).title).toBe(title);
  });

  it('refuses line breaks, control characters, bidirectional controls and unknown fields', () => {
    expect(TransferOpenGraph.safeParse({ title: 'a\nb' }).success).toBe(false);
    expect(TransferOpenGraph.safeParse({ description: 'a\u0000b' }).success).toBe(false);
    expect(TransferOpenGraph.safeParse({ title: 'a\u202Eb' }).success).toBe(false);
    expect(TransferOpenGraph.safeParse({ image: 'https://x.example/a.png' }).success).toBe(false);
  });

  it('is an optional field of TransferCreateRequest', () => {
    expect(TransferCreateRequest.parse({ files }).openGraph).toBeUndefined();
    expect(TransferCreateRequest.parse({ files, openGraph: { title: 'Hi' } }).openGraph).toEqual({
      title: 'Hi',
    });
    expect(TransferCreateRequest.safeParse({ files, openGraph: { title: 1 } }).success).toBe(false);
  });
});

describe('openGraphTextProblem', () => {
  it('says what TransferOpenGraph would refuse, counting the text as it is sent (trimmed)', () => {
    const cases: Array<[string, number]> = [
      ['', OPEN_GRAPH_TITLE_MAX],
      ['Summer shoot', OPEN_GRAPH_TITLE_MAX],
      [`  ${'x'.repeat(OPEN_GRAPH_TITLE_MAX)}  `, OPEN_GRAPH_TITLE_MAX],
      ['x'.repeat(OPEN_GRAPH_TITLE_MAX + 1), OPEN_GRAPH_TITLE_MAX],
      ['y'.repeat(OPEN_GRAPH_DESCRIPTION_MAX + 1), OPEN_GRAPH_DESCRIPTION_MAX],
      ['trailing line break\n', OPEN_GRAPH_TITLE_MAX],
      ['two\nlines', OPEN_GRAPH_DESCRIPTION_MAX],
      ['tab\tinside', OPEN_GRAPH_TITLE_MAX],
      ['a\u202Eb', OPEN_GRAPH_TITLE_MAX],
      ['ملفات الصيف 🎉', OPEN_GRAPH_TITLE_MAX],
    ];
    for (const [text, max] of cases) {
      const field = max === OPEN_GRAPH_TITLE_MAX ? 'title' : 'description';
      const accepted = TransferOpenGraph.safeParse({ [field]: text }).success;
      expect(openGraphTextProblem(text, max) === null, JSON.stringify(text)).toBe(accepted);
    }
  });

  it('names the problem: control characters first, then the length', () => {
    expect(openGraphTextProblem('x'.repeat(121), OPEN_GRAPH_TITLE_MAX)).toBe('too_long');
    expect(openGraphTextProblem(`a\n${'x'.repeat(200)}`, OPEN_GRAPH_TITLE_MAX)).toBe('control_chars');
    expect(openGraphTextProblem('a\u0000b', OPEN_GRAPH_DESCRIPTION_MAX)).toBe('control_chars');
    expect(openGraphTextProblem('  fine  ', 4)).toBeNull();
  });
});
