import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { type LoaderFunctionArgs, Link, useLoaderData } from 'react-router-dom';
import type { StaffCounts } from '../../../api/binding';
import { apiFrom } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { CONSOLE_SECTIONS } from './console-sections';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';

/** The console's home reads every queue's size in one call: the numbers show, and a 403 says this is not staff. */
export const loader = ({ context }: LoaderFunctionArgs) => staffRead(() => apiFrom(context).staff.counts());

/** /staff: the staff console (role staff), every staff page one tap away with its queue's size; phone and tablet widths. */
export default function StaffHomeScreen() {
  const d = useLoaderData() as StaffData<StaffCounts>;
  const { i18n } = useLingui();
  const retry = useStableRevalidate();
  return (
    <StaffPage d={d} onRetry={retry} title={<Trans>员工工作台</Trans>}>
      {(counts) => (
        <ul className="grid-12 md:cols-2 gap-y-3 p-4" data-console-sections>
          {CONSOLE_SECTIONS.map((s) => {
            const waiting = s.count ? counts[s.count] : 0;
            return (
              <li key={s.key}>
                <Link to={s.path} className="block min-h-20 rounded-xl bg-white p-4 shadow-sm ring-1 ring-black/5" data-section={s.key}>
                  <span className="flex items-center justify-between text-base font-medium">
                    {i18n._(s.title)}
                    {waiting > 0 ? (
                      <span className="rounded-full bg-rose-600 px-2 text-xs text-white tabular-nums" data-waiting={waiting}>
                        {/* the number alone says nothing read aloud: the reader hears what it counts */}
                        <span aria-hidden>{waiting}</span>
                        <span className="sr-only">
                          <Trans>{waiting} 项待处理</Trans>
                        </span>
                      </span>
                    ) : null}
                  </span>
                  <span className="mt-1 block text-sm text-black/60">{i18n._(s.description)}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </StaffPage>
  );
}
