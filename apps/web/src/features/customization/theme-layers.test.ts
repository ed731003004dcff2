import type { Theme } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import { downloadLayers, resolveLayers } from './theme-layers';

const hostTheme: Theme = {
  subdomainName: 'acme',
  domain: null,
  widgetId: null,
  backgroundColor: '#263238',
  actionColor: '#1b5e20',
  startbtnColor: '#ffab00',
  customization: { wallpaperURL: null, wallpaperURLs: [], backgroundVideoURL: null },
  uploader: { recipientLabel: null, subject: null },
  logoURL: '/api/theme/assets/logo1',
  mailHeaderURL: null,
  subdomainsEnabled: true,
};

describe('downloadLayers', () => {
  it('waits for the info (null keeps the site theme while it loads)', () => {
    expect(downloadLayers(undefined)).toBeNull();
  });

  it("shows Ferry's own look for a sender without a theme, never the host's or the visitor's", () => {
    const layers = downloadLayers({ theme: null, customization: null });
    expect(layers).toEqual([]);
    // The page's layers replace the site's: resolved, nothing is branded.
    const resolved = resolveLayers(...(layers ?? []));
    expect(resolved.branded).toBe(false);
    expect(resolved.logoURL).toBeNull();
  });

  it("puts the transfer's own colours over its sender's theme", () => {
    const layers = downloadLayers({
      theme: hostTheme,
      customization: {
        backgroundColor: '#101010',
        actionColor: null,
        startbtnColor: null,
        wallpaperURL: null,
      },
    });
    const resolved = resolveLayers(...(layers ?? []));
    expect(resolved.colors.backgroundColor).toBe('#101010');
    expect(resolved.colors.actionColor).toBe('#1b5e20');
    expect(resolved.logoURL).toBe('/api/theme/assets/logo1');
  });
});
