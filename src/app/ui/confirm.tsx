import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

export interface ConfirmInput {
  placeholder?: string;
  type?: 'text' | 'tel' | 'number' | 'password';
  /** accessible name of the field (defaults to the placeholder) */
  label?: string;
  maxLength?: number;
}

export interface ConfirmOptions {
  title?: ReactNode;
  message?: ReactNode;
  confirmText?: ReactNode;
  cancelText?: ReactNode;
  /** false hides the cancel button (an acknowledgement) */
  showCancel?: boolean;
  /** an input in the dialog: cleared and focused about 300 ms after opening (spec §2, §9) */
  input?: ConfirmInput;
  /**
   * Keeps the dialog open on confirm (spec §2 "unless set to stay open"): `onConfirm` then decides,
   * calling `close()` when it is done (e.g. after the input was checked).
   */
  stayOpen?: boolean;
  /** called on every confirm with the input's value */
  onConfirm?: (value: string, close: () => void) => void;
  /** closes the dialog, cancelled, when aborted (its asker went away) */
  signal?: AbortSignal;
}

export type ConfirmResult = { confirmed: true; value: string } | { confirmed: false };

/** Opens the dialog; resolves when it closes: confirmed (with the input's value) or cancelled. */
export type OpenConfirm = (options: ConfirmOptions) => Promise<ConfirmResult>;

const ConfirmContext = createContext<OpenConfirm | null>(null);

/**
 * The dialog itself is its own chunk: no screen's first load pays for it. A screen that may ask
 * (`useConfirm`) fetches it once the page is idle, and a tap that opens it before it arrived shows the
 * dialog's backdrop at once (every tap shows its effect; on a slow network the chunk took
 * 0.85 s, with nothing on screen).
 */
const loadView = () => import('./confirm-view');
const ConfirmView = lazy(loadView);

/** What shows between the tap and the dialog's arrival: its backdrop, busy. */
function Opening() {
  return <div className="fixed inset-0 z-50 bg-black/30" aria-busy="true" data-confirm-loading />;
}

/** One open dialog: its options and how to settle the caller's promise. */
export interface Open {
  id: number;
  options: ConfirmOptions;
  resolve: (r: ConfirmResult) => void;
}

/**
 * The confirm dialog of spec §2: closes on confirm (unless `stayOpen`) or on cancel. One at a time:
 * opening another cancels the one showing.
 */
export function ConfirmProvider(props: { children: ReactNode }) {
  const [open, setOpen] = useState<Open | null>(null);
  const seq = useRef(0);
  const current = useRef<Open | null>(null);

  const finish = useCallback((id: number, result: ConfirmResult) => {
    const o = current.current;
    if (!o || o.id !== id) return;
    current.current = null;
    setOpen(null);
    o.resolve(result);
  }, []);

  const openConfirm = useCallback<OpenConfirm>(
    (options) =>
      new Promise<ConfirmResult>((resolve) => {
        if (current.current) finish(current.current.id, { confirmed: false });
        const o: Open = { id: ++seq.current, options, resolve };
        current.current = o;
        setOpen(o);
        options.signal?.addEventListener('abort', () => finish(o.id, { confirmed: false }), { once: true });
      }),
    [finish],
  );

  useEffect(() => () => current.current?.resolve({ confirmed: false }), []);

  return (
    <ConfirmContext.Provider value={openConfirm}>
      {props.children}
      {open && (
        <Suspense fallback={<Opening />}>
          <ConfirmView key={open.id} open={open} finish={finish} />
        </Suspense>
      )}
    </ConfirmContext.Provider>
  );
}

/** The imperative confirm: `const confirm = useConfirm(); if ((await confirm({ message })).confirmed) …`. */
export function useConfirm(): OpenConfirm {
  const open = useContext(ConfirmContext);
  if (!open) throw new Error('useConfirm() needs <ConfirmProvider> (src/app/providers.tsx)');
  // the dialog's chunk, fetched while the member reads the page (after the first screen is drawn)
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 200));
    idle(() => void loadView());
  }, []);
  return open;
}

/**
 * Opens the confirm dialog while a chart is in its asking state (`asking`) and sends the chart the
 * member's answer. The state opens it, not the tap: a tap that reaches a chart whose actor has not
 * started yet (its page re-rendered a moment ago; an actor starts in an effect) is queued and taken
 * at the start, and the dialog opens then. Asking from the tap's handler missed those (a loaded CI
 * run: the card stayed in "confirming unfreeze" with no dialog on screen).
 */
export function useConfirmWhile(asking: boolean, options: ConfirmOptions, answer: (confirmed: boolean) => void): void {
  const open = useConfirm();
  const latest = useRef({ options, answer });
  latest.current = { options, answer };
  useEffect(() => {
    if (!asking) return;
    const gone = new AbortController();
    void open({ ...latest.current.options, signal: gone.signal }).then((r) => {
      if (!gone.signal.aborted) latest.current.answer(r.confirmed);
    });
    // the chart left the state another way, or the screen went: the dialog goes too
    return () => gone.abort();
  }, [asking, open]);
}
