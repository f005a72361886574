import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/**
 * A detail screen's answer to a missing or unknown id (DESIGN.md §5): says so plainly and offers a way
 * back to the list it belongs to, and to the Homepage.
 */
export function NotFoundState(props: { message: ReactNode; backTo: string; backLabel: ReactNode }) {
  return (
    <Block className="text-center" data-not-found>
      <svg aria-hidden width="64" height="64" viewBox="0 0 64 64" className="mx-auto mt-10 text-black/60">
        <circle cx="28" cy="28" r="18" fill="none" stroke="currentColor" strokeWidth="4" />
        <path d="M41 41l13 13" stroke="currentColor" strokeWidth="5" strokeLinecap="round" />
      </svg>
      <h1 className="mt-4 mb-8 text-lg font-semibold">{props.message}</h1>
      <Button large rounded component={Link} {...{ to: props.backTo }} className="mx-auto max-w-60">
        {props.backLabel}
      </Button>
      <Link to="/" className="mt-4 inline-block text-primary">
        <Trans>返回首页</Trans>
      </Link>
    </Block>
  );
}
