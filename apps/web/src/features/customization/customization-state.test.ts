import type { Theme } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import {
  contrastProblems,
  draftOf,
  draftValid,
  isDirty,
  previewVariables,
  updateOf,
} from './customization-state';

const theme: Theme = {
  subdomainName: null,
  domain: null,
  widgetId: null,
  backgroundColor: '#4052B5',
  actionColor: '#3F51B5',
  startbtnColor: '#FF6208',
  customization: { wallpaperURL: null, wallpaperURLs: [], backgroundVideoURL: null },
  uploader: { recipientLabel: null, subject: null },
  logoURL: null,
  mailHeaderURL: null,
  subdomainsEnabled: false,
};
const asset = (id: string) => `/api/theme/assets/${id.padEnd(24, 'x')}`;

describe('customization page state', () => {
  it('starts from the saved theme and sends nothing until something changes', () => {
    const saved = draftOf(theme);
    expect(saved.actionColor).toBe('#3f51b5');
    expect(isDirty(saved, saved)).toBe(false);
    expect(updateOf(saved, saved)).toEqual({});
  });

  it('sends only what changed, texts trimmed and emptied ones as null', () => {
    const saved = draftOf({ ...theme, uploader: { recipientLabel: 'Clients', subject: null } });
    const draft = {
      ...saved,
      actionColor: '#1A237E',
      recipientLabel: '  ',
      subject: ' Acme ',
      logoURL: asset('logo'),
      wallpaperURLs: [asset('a'), asset('b')],
    };
    expect(updateOf(draft, saved)).toEqual({
      actionColor: '#1a237e',
      logoURL: asset('logo'),
      customization: { wallpaperURLs: [asset('a'), asset('b')] },
      uploader: { recipientLabel: null, subject: 'Acme' },
    });
  });

  it('flags colours that are not hex or would not read, like the server', () => {
    const saved = draftOf(theme);
    expect(draftValid({ ...saved, backgroundColor: 'blue' })).toBe(false);
    const pale = { ...saved, actionColor: '#ffeb3b' };
    expect(contrastProblems(pale).actionColor?.min).toBe(4.5);
    expect(draftValid(pale)).toBe(false);
    expect(draftValid({ ...saved, startbtnColor: '#ffeb3b' })).toBe(true);
  });

  it('previews what is typed, keeping the saved colour while a field is not a colour yet', () => {
    const saved = draftOf(theme);
    const vars = previewVariables({ ...saved, backgroundColor: '#fafafa', startbtnColor: '#12' }, saved);
    expect(vars['--preview-bg']).toBe('#fafafa');
    expect(vars['--preview-bg-text']).toBe('#000000');
    expect(vars['--preview-start']).toBe('#ff6208');
  });
});
