import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';

export type ToastKind = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

export interface ToastApi {
  show(message: string, kind?: ToastKind): number;
  dismiss(id: number): void;
}

interface ToastState extends ToastApi {
  toasts: readonly Toast[];
}

/** More than this many at once and the oldest make room: a burst of notices must not fill the screen. */
export const MAX_VISIBLE_TOASTS = 5;

const ToastContext = createContext<ToastState | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback((message: string, kind: ToastKind = 'info') => {
    const id = nextId.current++;
    setToasts((list) => [...list, { id, kind, message }].slice(-MAX_VISIBLE_TOASTS));
    return id;
  }, []);
  const value = useMemo(() => ({ toasts, show, dismiss }), [toasts, show, dismiss]);
  return <ToastContext.Provider value={value}>{children}</ToastContext.Provider>;
}

function useToastState(): ToastState {
  const state = useContext(ToastContext);
  if (!state) throw new Error('useToast must be used inside <ToastProvider>');
  return state;
}

/** Shows notices in the toast area (spec §2: top-right, stacked, closing after 4 s). */
export function useToast(): ToastApi {
  const { show, dismiss } = useToastState();
  return useMemo(() => ({ show, dismiss }), [show, dismiss]);
}

export function useToasts(): readonly Toast[] {
  return useToastState().toasts;
}
