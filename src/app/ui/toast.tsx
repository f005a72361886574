import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { TOAST_DURATION_MS } from '../../domain/limits';
import { appTimers } from '../app-clock';

export type ToastType = 'success' | 'fail' | 'text' | 'loading';

export interface ToastOptions {
  message: ReactNode;
  /** spec §2: success unless told otherwise */
  type?: ToastType;
  /** ms before it hides itself (spec §9: 2000); 0 keeps it until hidden (loading) */
  duration?: number;
}

/** Shows a toast; returns a function that hides it early. */
export type ShowToast = (options: ToastOptions | string) => () => void;

const ToastContext = createContext<ShowToast | null>(null);

interface ToastState extends Required<Omit<ToastOptions, 'message'>> {
  message: ReactNode;
  id: number;
}

/**
 * The toast of spec §2: one at a time, centred, 7.6em wide, success by default, hiding itself after
 * 2000 ms. A new toast replaces the one showing and restarts the timer.
 */
export function ToastProvider(props: { children: ReactNode }) {
  const [toast, setToast] = useState<ToastState | null>(null);
  const timer = useRef<unknown>(undefined);
  const seq = useRef(0);

  useEffect(() => () => appTimers().clearTimeout(timer.current), []);

  const show = useCallback<ShowToast>((options) => {
    const o = typeof options === 'string' ? { message: options } : options;
    const id = ++seq.current;
    const type = o.type ?? 'success';
    const duration = o.duration ?? (type === 'loading' ? 0 : TOAST_DURATION_MS);
    appTimers().clearTimeout(timer.current);
    setToast({ id, message: o.message, type, duration });
    const hide = () => setToast((t) => (t?.id === id ? null : t));
    if (duration > 0) timer.current = appTimers().setTimeout(hide, duration);
    return () => {
      appTimers().clearTimeout(timer.current);
      hide();
    };
  }, []);

  return (
    <ToastContext.Provider value={show}>
      {props.children}
      {toast && <ToastView key={toast.id} type={toast.type} message={toast.message} />}
    </ToastContext.Provider>
  );
}

function ToastView(props: { type: ToastType; message: ReactNode }) {
  const { type } = props;
  return (
    <div className="pointer-events-none fixed inset-0 z-[11000] flex items-center justify-center">
      <div
        role={type === 'fail' ? 'alert' : 'status'}
        aria-live={type === 'fail' ? 'assertive' : 'polite'}
        data-toast-type={type}
        className="flex w-[7.6em] flex-col items-center gap-2 rounded-xl bg-black/75 px-2 py-4 text-center text-sm leading-snug break-words text-white"
      >
        {type !== 'text' && <ToastIcon type={type} />}
        <div>{props.message}</div>
      </div>
    </div>
  );
}

function ToastIcon(props: { type: Exclude<ToastType, 'text'> }) {
  if (props.type === 'loading') {
    return <span aria-hidden className="block h-8 w-8 animate-spin rounded-full border-[3px] border-white/30 border-t-white" />;
  }
  return (
    <svg
      aria-hidden
      width="32"
      height="32"
      viewBox="0 0 32 32"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <circle cx="16" cy="16" r="14" />
      {props.type === 'success' ? <path d="M9.5 16.5l4.5 4.5 8.5-9" /> : <path d="M11 11l10 10M21 11L11 21" />}
    </svg>
  );
}

/** The imperative toast: `const toast = useToast(); toast('已保存')` or `toast({ message, type: 'fail' })`. */
export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast() needs <ToastProvider> (src/app/providers.tsx)');
  return show;
}
