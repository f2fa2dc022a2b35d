import { useCallback, useEffect, useMemo, useState } from 'react';
import { type Api, ApiError, CSRF_HEADERS, createApi, errorFrom } from './api.ts';

/** Where versions before the session cookie kept the token: moved to a cookie once, then deleted. */
const LEGACY_KEY = 'tessera.token';

/**
 * A token in the address: `#token=…` (the link the server prints: a fragment never reaches the server) or
 * `?token=…` (older links). Taken out of the address bar at once, when this module loads, before anything
 * reads the address (the conversation route lives in the hash), so it is never bookmarked, shared or sent.
 */
function takeTokenFromAddress(): string | undefined {
  if (typeof window === 'undefined') return undefined;
  const url = new URL(window.location.href);
  const fromHash = url.hash.startsWith('#token=')
    ? new URLSearchParams(url.hash.slice(1)).get('token')
    : null;
  const token = fromHash ?? url.searchParams.get('token');
  if (!token) return undefined;
  if (fromHash) url.hash = '';
  url.searchParams.delete('token');
  window.history.replaceState(null, '', url.toString());
  return token;
}

let addressToken = takeTokenFromAddress();

/** Exchanges a token for the session cookie (HttpOnly: scripts never see it again). */
export async function signIn(token: string, baseUrl = ''): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: token.trim() }),
    });
  } catch {
    throw new ApiError('network', 'Cannot reach the Tessera server. Check that it is running.');
  }
  if (!response.ok) throw errorFrom(response, await response.json().catch(() => undefined));
}

/** Clears the session cookie (the server does: scripts cannot touch an HttpOnly cookie). */
export async function signOut(baseUrl = ''): Promise<void> {
  await fetch(`${baseUrl}/api/session`, { method: 'DELETE', headers: CSRF_HEADERS });
}

export type SessionState = { status: 'loading' | 'signed-out' | 'signed-in'; error?: string };

let restoring: Promise<SessionState> | undefined;

/**
 * On load: a token from the address (or one an older version kept in localStorage) is exchanged for the
 * cookie; then the server says whether the browser is signed in. Once per page (React may mount twice).
 */
function restoreSession(api: Api): Promise<SessionState> {
  restoring ??= (async (): Promise<SessionState> => {
    const legacy = localStorage.getItem(LEGACY_KEY) ?? undefined;
    localStorage.removeItem(LEGACY_KEY);
    const token = addressToken ?? legacy;
    addressToken = undefined;
    try {
      if (token) await signIn(token);
      await api.me();
      return { status: 'signed-in' };
    } catch (error) {
      const known = error instanceof ApiError;
      // Not signed in is the normal first visit: no message unless a token was given and refused.
      if (known && error.code === 'unauthorized')
        return { status: 'signed-out', ...(token && { error: error.message }) };
      return { status: 'signed-out', error: known ? error.message : String(error) };
    }
  })();
  return restoring;
}

export type Session = SessionState & {
  /** The API, authorized by the session cookie; there once signed in. */
  api: Api | undefined;
  /** Exchanges a pasted token for the cookie; a refused token becomes `error`. */
  signIn: (token: string) => Promise<void>;
  signOut: () => Promise<void>;
};

/** The browser's session: whether it is signed in, the API it uses, and signing in and out. */
export function useSession(): Session {
  const api = useMemo(() => createApi(), []);
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    void restoreSession(api).then((restored) => {
      if (current) setState(restored);
    });
    return () => {
      current = false;
    };
  }, [api]);
  const signInWith = useCallback(async (token: string) => {
    try {
      await signIn(token);
      setState({ status: 'signed-in' });
    } catch (error) {
      setState({ status: 'signed-out', error: (error as Error).message });
    }
  }, []);
  const signOutNow = useCallback(async () => {
    await signOut().catch(() => {});
    setState({ status: 'signed-out' });
  }, []);
  return {
    ...state,
    api: state.status === 'signed-in' ? api : undefined,
    signIn: signInWith,
    signOut: signOutNow,
  };
}
