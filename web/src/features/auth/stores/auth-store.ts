import { create } from 'zustand';
import type { AuthState } from '@/types/api';
import { getAuthState } from '../api/get-auth-state';

interface AuthStore {
  auth: AuthState | null;
  load: () => Promise<AuthState>;
  /** Forget the agent locally (session expiry, logout) but keep the CSRF token. */
  markLoggedOut: () => void;
}

export const useAuthStore = create<AuthStore>()((set, get) => ({
  auth: null,
  load: async () => {
    const auth = await getAuthState();
    set({ auth });
    return auth;
  },
  markLoggedOut: () => {
    const auth = get().auth;
    if (auth) set({ auth: { ...auth, is_authorized: false, is_admin: false, user_name: null, admin_subdomain: null } });
  },
}));

export const selectIsAuthorized = (s: AuthStore): boolean => s.auth?.is_authorized ?? false;
