import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { PhotoToReview } from '../../../contracts/photos';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../auth/auth-messages';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';

export const loader = ({ context }: LoaderFunctionArgs) => staffRead(() => apiFrom(context).staff.photos());

/** /staff/photos: members' check-in photos under review, oldest first; pass, or reject with a reason (decision 007). */
export default function PhotoReviewScreen() {
  const d = useLoaderData() as StaffData<PhotoToReview[]>;
  const { i18n, t } = useLingui();
  const revalidate = useStableRevalidate();
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const [error, setError] = useState<{ id: number; code: number } | null>(null);
  const review = async (id: number, pass: boolean) => {
    setError(null);
    try {
      const r = await browserApiOrThrow().staff.reviewPhoto(id, pass ? { decision: 'pass' } : { decision: 'reject', reason: (reasons[id] ?? '').trim() });
      if (r.code !== 200) setError({ id, code: r.code });
    } catch {
      setError({ id, code: 70002 });
    }
    revalidate();
  };
  return (
    <StaffPage d={d} onRetry={revalidate} title={<Trans>照片审核</Trans>}>
      {(photos) =>
        photos.length === 0 ? (
          <p className="p-6 text-center text-sm text-black/60">
            <Trans>没有等待审核的照片</Trans>
          </p>
        ) : (
          <ul className="grid grid-cols-1 gap-3 p-4 md:grid-cols-2" data-photo-list>
            {photos.map((p) => (
              <li key={p.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-black/5" data-photo={p.id}>
                <img src={`/api/staff/photos/${p.id}/image`} alt="" width={120} height={120} className="h-30 w-30 rounded-lg bg-black/5 object-cover" />
                <p className="mt-2 text-sm">
                  {p.name ?? p.phone} · {shanghaiFormat(new Date(p.createdAt), 'MM-DD HH:mm')}
                </p>
                <input
                  className="mt-2 block min-h-11 w-full rounded-lg border border-black/15 px-3 text-sm"
                  placeholder={t`不通过的原因（会员可见）`}
                  value={reasons[p.id] ?? ''}
                  onChange={(e) => setReasons({ ...reasons, [p.id]: e.target.value })}
                />
                {error?.id === p.id ? (
                  <p role="alert" className="mt-1 text-sm text-rose-600">
                    {i18n._(refusalMessage(error.code))}
                  </p>
                ) : null}
                <div className="mt-2 flex gap-2">
                  <Button small rounded inline onClick={() => void review(p.id, true)}>
                    <Trans>通过</Trans>
                  </Button>
                  <Button small rounded inline outline disabled={!(reasons[p.id] ?? '').trim()} onClick={() => void review(p.id, false)}>
                    <Trans>不通过</Trans>
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )
      }
    </StaffPage>
  );
}
