import { Trans } from '@lingui/react/macro';
import type { Notice } from '../../../../api/catalog';
import { shanghaiMonthDay } from '../../../../domain/time';

const SHOWN = 3;

/** Notices, each opening in place (a native <details>): the latest three on the Homepage, all on /sys/notification. */
export function NoticeList(props: { notices: Notice[]; limit?: number; open?: boolean }) {
  const shown = props.notices.slice(0, props.limit ?? SHOWN);
  if (shown.length === 0) return null;
  return (
    <section className="mx-4 mt-4 rounded-xl bg-white" aria-labelledby="home-notices">
      <h2 id="home-notices" className="px-4 pt-3 pb-1 text-base font-semibold">
        <Trans>公告</Trans>
      </h2>
      {shown.map((n) => (
        <details
          key={n.id}
          open={props.open}
          data-notice={n.id}
          data-personal={n.personal}
          className="border-t border-black/5 px-4 py-2.5 first-of-type:border-t-0"
        >
          <summary className="flex cursor-pointer list-none items-center gap-2 text-sm">
            {n.personal ? (
              <span className="shrink-0 rounded bg-primary/10 px-1 text-xs text-primary">
                <Trans>我的</Trans>
              </span>
            ) : (
              <span className="shrink-0 rounded bg-orange-100 px-1 text-xs text-orange-700">
                <Trans>系统</Trans>
              </span>
            )}
            <span className={`min-w-0 flex-1 truncate ${n.read ? 'text-black/60' : ''}`}>{n.title}</span>
            <time dateTime={n.createdAt} className="shrink-0 text-xs text-black/60 tabular-nums">
              {shanghaiMonthDay(n.createdAt)}
            </time>
          </summary>
          <p className="mt-1.5 text-sm leading-relaxed text-black/65">{n.body}</p>
        </details>
      ))}
    </section>
  );
}
