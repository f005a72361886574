import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { type ReactNode, useId } from 'react';

/** "Get code" with the resend countdown (the seconds the server asked to wait) while the sender is cooling down. */
export function CodeButton(props: { sending: boolean; remaining: number | undefined; onSend(): void }) {
  const { sending, remaining } = props;
  return (
    <Button
      small
      outline
      rounded
      inline
      className="!w-auto shrink-0 whitespace-nowrap tabular-nums"
      disabled={sending || remaining !== undefined}
      // inside the form: a plain button, or a tap on it would also submit the form
      type="button"
      onClick={props.onSend}
      data-testid="send-code"
    >
      {remaining !== undefined ? <Trans>{remaining} 秒后重发</Trans> : sending ? <Trans>发送中…</Trans> : <Trans>获取验证码</Trans>}
    </Button>
  );
}

/** One line of feedback under a form (field error, refusal or network). */
export function FormMessage(props: { children?: string; tone?: 'error' | 'info' }) {
  if (!props.children) return <p className="min-h-5 px-4 text-sm" aria-live="polite" />;
  return (
    <p
      role={props.tone === 'info' ? 'status' : 'alert'}
      className={`min-h-5 px-4 text-sm ${props.tone === 'info' ? 'text-black/60' : 'text-red-600'}`}
    >
      {props.children}
    </p>
  );
}

/**
 * The SMS code field with its "get code" button on the same line, right of the digits (Konsta's
 * `after` slot drew the button on a row of its own above the field).
 */
export function CodeField(props: { name: string; value: string; placeholder?: string; onChange(value: string): void; button: ReactNode }) {
  const id = useId();
  return (
    <LabelledInput
      label={<Trans>验证码</Trans>}
      inputId={id}
      input={
        <span className="flex items-center gap-2">
          <input
            id={id}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            name={props.name}
            placeholder={props.placeholder}
            value={props.value}
            onChange={(e) => props.onChange(e.target.value)}
            className="block h-10 w-full min-w-0 flex-1 appearance-none bg-transparent text-base placeholder-black/30 focus:outline-none"
          />
          {props.button}
        </span>
      }
    />
  );
}
