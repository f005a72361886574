import { Trans } from '@lingui/react/macro';
import { Dialog, DialogButton } from 'konsta/react';
import { useEffect, useRef, useState } from 'react';
import { CONFIRM_INPUT_FOCUS_DELAY_MS } from '../../domain/limits';
import type { ConfirmResult, Open } from './confirm';

/** The dialog of one open confirm (spec §2), with its optional input. */
export default function ConfirmView(props: { open: Open; finish: (id: number, r: ConfirmResult) => void }) {
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
          {options.showCancel !== false && <DialogButton onClick={cancel}>{options.cancelText ?? <Trans>取消</Trans>}</DialogButton>}
          <DialogButton strong onClick={confirm}>
            {options.confirmText ?? <Trans>确定</Trans>}
          </DialogButton>
        </>
      }
    />
  );
}
