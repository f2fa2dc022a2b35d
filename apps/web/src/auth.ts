const KEY = 'tessera.token';

/**
 * The access token: taken from `?token=` on first load (the link the server prints), kept in localStorage,
 * and removed from the address bar so it is not shared by accident.
 */
export function readToken(): string | undefined {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    localStorage.setItem(KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.toString());
    return fromUrl;
  }
  return localStorage.getItem(KEY) ?? undefined;
}

export function saveToken(token: string): void {
  localStorage.setItem(KEY, token);
}
