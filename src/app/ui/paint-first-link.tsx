import { useState, type MouseEvent } from 'react';
import { Link, useNavigate, type LinkProps } from 'react-router-dom';

/**
 * Runs `fn` once the browser has painted the current frame: from a frame callback, the next task.
 * A hidden page paints no frames, so a timer stands in after 100 ms; whichever comes first runs it.
 */
export function afterNextPaint(fn: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    fn();
  };
  const timer = setTimeout(once, 100);
  if (typeof requestAnimationFrame === 'function')
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        once();
      }, 0),
    );
}

/**
 * A link whose tap paints its own effect first (`onTap`: the chosen day highlighted, the tapped tab
 * active, a skeleton) and only then starts the navigation, whose loaders begin requests and whose
 * screen may still be loading: that work no longer sits between the tap and what the member sees
 * ("every tap shows its effect within 100 ms"; measured by `npm run bench`, section taps).
 * A tap with a modifier key, or a link opening elsewhere, behaves as a plain link.
 *
 * `showOpening`: the link itself is the tap's effect. It is marked busy (`aria-busy`, styled by the
 * caller with `aria-busy:`) from the tap until its page replaces it: a row in a list, whose page has
 * nothing else to change at the tap.
 */
export function PaintFirstLink({
  onTap,
  onClick,
  showOpening,
  to,
  replace,
  preventScrollReset,
  state,
  target,
  ...rest
}: LinkProps & { onTap?: () => void; showOpening?: boolean }) {
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);
  const tap = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey || (target && target !== '_self')) return;
    e.preventDefault();
    onTap?.();
    if (showOpening) setOpening(true);
    afterNextPaint(() => void navigate(to, { replace, preventScrollReset, state }));
  };
  return (
    <Link
      to={to}
      replace={replace}
      preventScrollReset={preventScrollReset}
      state={state}
      target={target}
      aria-busy={opening || undefined}
      {...rest}
      onClick={tap}
    />
  );
}
