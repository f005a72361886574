import { Trans } from '@lingui/react/macro';
import { Dialog, DialogButton } from 'konsta/react';
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { CONFIRM_INPUT_FOCUS_DELAY_MS } from '../../domain/limits';

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
}

export type ConfirmResult = { confirmed: true; value: string } | { confirmed: false };

/** Opens the dialog; resolves when it closes: confirmed (with the input's value) or cancelled. */
export type OpenConfirm = (options: ConfirmOptions) => Promise<ConfirmResult>;

const ConfirmContext = createContext<OpenConfirm | null>(null);

interface Open {
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
      }),
    [finish],
  );

  useEffect(() => () => current.current?.resolve({ confirmed: false }), []);

  return (
    <ConfirmContext.Provider value={openConfirm}>
      {props.children}
      {open && <ConfirmView key={open.id} open={open} finish={finish} />}
    </ConfirmContext.Provider>
  );
}

function ConfirmView(props: { open: Open; finish: (id: number, r: ConfirmResult) => void }) {
  const { id, options } = props.open;
  const { finish } = props;
  const [value, setValue] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!options.input) return;
    const t = setTimeout(() => {
      setValue('');
      inputRef.current?.focus();
    }, CONFIRM_INPUT_FOCUS_DELAY_MS);
    return () => clearTimeout(t);
  }, [options.input]);

  const cancel = () => finish(id, { confirmed: false });
  const confirm = () => {
    const close = () => finish(id, { confirmed: true, value });
    options.onConfirm?.(value, close);
    if (!options.stayOpen) close();
  };

  return (
    <Dialog
      opened
      role="dialog"
      aria-modal="true"
      onBackdropClick={cancel}
      title={options.title}
      content={
        <>
          {options.message}
          {options.input && (
            <input
              ref={inputRef}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') confirm();
              }}
              type={options.input.type ?? 'text'}
              inputMode={options.input.type === 'tel' || options.input.type === 'number' ? 'numeric' : undefined}
              placeholder={options.input.placeholder}
              aria-label={options.input.label ?? options.input.placeholder}
              maxLength={options.input.maxLength}
              className="mt-3 block w-full rounded-lg border border-black/15 bg-white px-3 py-2 text-base text-black outline-none focus:border-primary"
            />
          )}
        </>
      }
      buttons={
        <>
          {options.showCancel !== false && (
            <DialogButton onClick={cancel}>{options.cancelText ?? <Trans>取消</Trans>}</DialogButton>
          )}
          <DialogButton strong onClick={confirm}>
            {options.confirmText ?? <Trans>确定</Trans>}
          </DialogButton>
        </>
      }
    />
  );
}

/** The imperative confirm: `const confirm = useConfirm(); if ((await confirm({ message })).confirmed) …`. */
export function useConfirm(): OpenConfirm {
  const open = useContext(ConfirmContext);
  if (!open) throw new Error('useConfirm() needs <ConfirmProvider> (src/app/providers.tsx)');
  return open;
}
