import { Trans } from '@lingui/react/macro';

const bar = 'rounded bg-black/[.07] animate-pulse';

/**
 * What shows while a client navigation loads its screen and data (spec §2 skeletons): a picture and
 * rows of fixed height, the same box as a typical screen, so nothing jumps when the data arrives.
 */
export function ScreenSkeleton() {
  return (
    <div aria-busy="true" className="min-h-screen px-4 pt-4" data-skeleton>
      <span className="sr-only">
        <Trans>加载中</Trans>
      </span>
      <div className={`${bar} aspect-[750/320] w-full rounded-xl`} />
      {[0, 1, 2, 3, 4].map((i) => (
        <div key={i} className="mt-5 flex items-center gap-3">
          <div className={`${bar} h-14 w-14 shrink-0 rounded-lg`} />
          <div className="flex-1 space-y-2">
            <div className={`${bar} h-4 w-3/5`} />
            <div className={`${bar} h-3 w-4/5`} />
          </div>
        </div>
      ))}
    </div>
  );
}
