import { Trans, useLingui } from '@lingui/react/macro';
import { ReasonInput } from './reason-input';
import { Button } from 'konsta/react';
import { useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { MemberPhoto, PhotoToReview } from '../../../contracts/photos';
import { STATUS_LABELS } from '../booking/photo-review-card';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';

export const loader = ({ context }: LoaderFunctionArgs) => staffRead(() => apiFrom(context).staff.photos());

/**
 * A member asks at the desk to change a passed photo (their avatar, spec §5 "contact staff"): staff
 * find them by phone and allow another upload (decision 042).
 */
function AllowAnother() {
  const { i18n, t } = useLingui();
  const [phone, setPhone] = useState('');
  const [found, setFound] = useState<MemberPhoto | null>(null);
  const [code, setCode] = useState<number | null>(null);
  const call = async <T,>(run: () => Promise<{ code: number; data: T | null }>, then: (d: T) => void) => {
    setCode(null);
    try {
      const r = await run();
      if (r.code === 200 && r.data) then(r.data);
      else setCode(r.code);
    } catch {
      setCode(70002);
    }
  };
  const find = () => call(() => browserApiOrThrow().staff.memberPhoto(phone.trim()), setFound);
  return (
    <section className="mx-4 mb-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-black/5" data-allow-another>
      <h2 className="font-semibold">
        <Trans>允许会员重新上传照片</Trans>
      </h2>
      <form
        className="mt-2 flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setFound(null);
          void find();
        }}
      >
        <input
          className="min-h-11 flex-1 rounded-lg border border-black/15 px-3 text-sm"
          inputMode="tel"
          name="phone"
          aria-label={t`会员手机号`}
          placeholder={t`会员手机号`}
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
        />
        <Button type="submit" rounded inline className="!min-h-11 !w-auto px-4" disabled={!phone.trim()}>
          <Trans>查找</Trans>
        </Button>
      </form>
      {found && (
        <div className="mt-2 flex items-center gap-3" data-member-photo={found.photo.status}>
          <p className="flex-1 text-sm">
            {found.name ?? found.phone} · {i18n._(STATUS_LABELS[found.photo.status])}
          </p>
          {found.photo.status === 'passed' && found.photo.photoId !== null && (
            <Button
              rounded
              inline
              outline
              className="!min-h-11 !w-auto px-4"
              onClick={() =>
                void call(
                  () => browserApiOrThrow().staff.allowAnotherPhoto(found.photo.photoId!),
                  () => void find(),
                )
              }
            >
              <Trans>允许重新上传</Trans>
            </Button>
          )}
        </div>
      )}
      {code !== null && (
        <p role="alert" className="mt-1 text-sm text-rose-700">
          {i18n._(refusalMessage(code))}
        </p>
      )}
    </section>
  );
}

/** /staff/photos: members' check-in photos under review, oldest first; pass, or reject with a reason (decision 007); allow another upload (decision 042). */
export default function PhotoReviewScreen() {
  const d = useLoaderData() as StaffData<PhotoToReview[]>;
  const { i18n } = useLingui();
  const revalidate = useStableRevalidate();
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const [error, setError] = useState<{ id: number; code: number } | null>(null);
  const review = async (id: number, pass: boolean) => {
    setError(null);
    try {
      const r = await browserApiOrThrow().staff.reviewPhoto(
        id,
        pass ? { decision: 'pass' } : { decision: 'reject', reason: (reasons[id] ?? '').trim() },
      );
      if (r.code !== 200) setError({ id, code: r.code });
    } catch {
      setError({ id, code: 70002 });
    }
    revalidate();
  };
  return (
    <StaffPage d={d} onRetry={revalidate} title={<Trans>照片审核</Trans>}>
      {(photos) => (
        <>
          <AllowAnother />
          {photos.length === 0 ? (
            <p className="p-6 text-center text-sm text-black/60">
              <Trans>没有等待审核的照片</Trans>
            </p>
          ) : (
            <ul className="grid-12 md:cols-2 gap-y-3 p-4" data-photo-list>
              {photos.map((p) => (
                <li key={p.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-black/5" data-photo={p.id}>
                  <img
                    src={`/api/staff/photos/${p.id}/image`}
                    alt=""
                    width={120}
                    height={120}
                    className="h-30 w-30 rounded-lg bg-black/5 object-cover"
                  />
                  <p className="mt-2 text-sm">
                    {p.name ?? p.phone} · {shanghaiFormat(new Date(p.createdAt), 'MM-DD HH:mm')}
                  </p>
                  <ReasonInput
                    className="mt-2 text-sm"
                    value={reasons[p.id] ?? ''}
                    onChange={(v) => setReasons({ ...reasons, [p.id]: v })}
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
          )}
        </>
      )}
    </StaffPage>
  );
}
