import type { ReactNode } from 'react';
import { Block } from 'konsta/react';

const icons = {
  success: <path d="M9.5 16.5l4.5 4.5 8.5-9" />,
  failure: <path d="M11 11l10 10M21 11L11 21" />,
  waiting: <path d="M16 9v7l4 3" />,
};
const tones = { success: 'text-emerald-700', failure: 'text-rose-600', waiting: 'text-amber-700' };

/** A payment page's answer: an icon, a headline, and what the member can do next. */
export function ResultPanel(props: { tone: keyof typeof icons; title: ReactNode; children?: ReactNode; result: string }) {
  return (
    <Block className="text-center" data-payment-result={props.result}>
      <svg
        aria-hidden
        width="56"
        height="56"
        viewBox="0 0 32 32"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        className={`mx-auto mt-8 ${tones[props.tone]}`}
      >
        <circle cx="16" cy="16" r="14" />
        {icons[props.tone]}
      </svg>
      <h1 className="mt-3 text-lg font-semibold">{props.title}</h1>
      <div className="mt-4 space-y-3">{props.children}</div>
    </Block>
  );
}
