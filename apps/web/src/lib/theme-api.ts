import type { OwnerCustomization, Theme, ThemeAsset, ThemeAssetKind, ThemeUpdate } from '@ferry/core';
import { API_PREFIX, apiRequest, NetworkError, parseApiError } from './api';
import { lazySchema } from './schemas';

/** GET /api/theme: the theme of the host's owner, or of the signed-in user's account or team, else defaults. */
export function getTheme(signal?: AbortSignal): Promise<Theme> {
  return apiRequest('/theme', { schema: lazySchema('Theme'), signal });
}

/** GET /api/user/users/{uid}/customization: the saved theme and its assets. */
export function getOwnerCustomization(uid: string, signal?: AbortSignal): Promise<OwnerCustomization> {
  return apiRequest(`/user/users/${encodeURIComponent(uid)}/customization`, {
    schema: lazySchema('OwnerCustomization'),
    signal,
  });
}

/** PUT /api/user/users/{uid}/customization. */
export function saveCustomization(uid: string, body: ThemeUpdate): Promise<Theme> {
  return apiRequest(`/user/users/${encodeURIComponent(uid)}/customization`, {
    method: 'PUT',
    body,
    schema: lazySchema('Theme'),
  });
}

/** POST …/customization/assets?kind=…: the file itself as the body (streamed by the browser). */
export async function uploadThemeAsset(uid: string, kind: ThemeAssetKind, file: Blob): Promise<ThemeAsset> {
  let response: Response;
  try {
    response = await fetch(
      `${API_PREFIX}/user/users/${encodeURIComponent(uid)}/customization/assets?kind=${kind}`,
      {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': file.type || 'application/octet-stream' },
        body: file,
        credentials: 'same-origin',
      },
    );
  } catch (cause) {
    throw new NetworkError(cause);
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) throw parseApiError(response.status, text, response.headers.get('Retry-After'));
  return (await lazySchema('ThemeAsset')()).parse(JSON.parse(text));
}

/** DELETE …/customization/assets/{assetId}. */
export function deleteThemeAsset(uid: string, assetId: string): Promise<void> {
  return apiRequest(
    `/user/users/${encodeURIComponent(uid)}/customization/assets/${encodeURIComponent(assetId)}`,
    { method: 'DELETE' },
  );
}
