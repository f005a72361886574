import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Button } from 'konsta/react';
import { useCallback, useMemo, useRef } from 'react';
import { useRevalidator } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { photoUploadMachine } from '../../../../machines/photo-upload.machine';
import type { PhotoView } from '../../../api/booking';
import { Errors } from '../../../domain/errors';
import type { PhotoStatus } from '../../../domain/photo-review';
import { browserApiOrThrow } from '../../api-context';
import { PHOTO_REFUSALS, PHOTO_TOO_LARGE } from '../../ui/photo-refusal';
import { refusalMessage } from '../../ui/refusal-message';
import { preparePhoto } from './prepare-photo';

/** Spec §4 photo review states, as the member reads them. */
export const STATUS_LABELS: Record<PhotoStatus, MessageDescriptor> = {
  none: msg`未上传`,
  reviewing: msg`审核中`,
  rejected: msg`未通过`,
  passed: msg`已通过`,
  reopened: msg`已通过，可重新上传`,
};
export const STATUS_TINTS: Record<PhotoStatus, string> = {
  none: 'bg-black/5 text-black/60',
  reviewing: 'bg-amber-100 text-amber-700',
  rejected: 'bg-rose-100 text-rose-700',
  passed: 'bg-emerald-100 text-emerald-700',
  reopened: 'bg-emerald-100 text-emerald-700',
};

/** The file input and what the upload machine says about it. */
function PhotoUpload(props: { again: boolean }) {
  const { i18n } = useLingui();
  const revalidator = useRevalidator();
  // the revalidator object changes each render; a stable callback keeps the machine's logic stable
  const latest = useRef(revalidator);
  latest.current = revalidator;
  const revalidate = useCallback(() => void latest.current.revalidate(), []);
  const logic = useMemo(
    () =>
      photoUploadMachine.provide({
        actors: { upload: fromPromise(({ input }) => browserApiOrThrow().booking.uploadPhoto(input.image)) },
        actions: { photoChanged: revalidate },
      }),
    [revalidate],
  );
  const upload = useActorRef(logic);
  const busy = useSelector(upload, (s) => s.hasTag('busy'));
  const unreachable = useSelector(upload, (s) => s.hasTag('unreachable'));
  const said = useSelector(upload, (s) =>
    s.hasTag('tooLarge') ? 'tooLarge' : s.hasTag('unreadable') ? 'unreadable' : s.hasTag('refused') ? 'refused' : null,
  );
  const code = useSelector(upload, (s) => s.context.errorCode);

  const feedback =
    said === 'tooLarge'
      ? i18n._(PHOTO_TOO_LARGE)
      : said === 'unreadable'
        ? i18n._(msg`无法读取这张图片，请换一张照片`)
        : said === 'refused'
          ? i18n._(refusalMessage(code, PHOTO_REFUSALS))
          : unreachable
            ? i18n._(Errors.network.message)
            : null;
  return (
    <div className="mt-3">
      <label
        className={`inline-flex h-9 cursor-pointer items-center rounded-full bg-primary px-4 text-sm text-white ${busy ? 'opacity-60' : ''}`}
      >
        {busy ? <Trans>上传中…</Trans> : props.again ? <Trans>重新上传</Trans> : <Trans>上传正面照片</Trans>}
        <input
          type="file"
          name="photo"
          accept="image/jpeg,image/png,image/webp"
          capture="user"
          className="sr-only"
          disabled={busy}
          data-photo-input
          onChange={async (e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (!file) return;
            try {
              upload.send({ type: 'photo.ready', ...(await preparePhoto(file)) });
            } catch {
              upload.send({ type: 'photo.unreadable' });
            }
          }}
        />
      </label>
      {unreachable && (
        <Button small rounded inline clear className="ml-2" onClick={() => upload.send({ type: 'network.retry' })}>
          <Trans>重试</Trans>
        </Button>
      )}
      <p role="alert" className="mt-1 min-h-4 text-xs text-rose-600" data-photo-feedback>
        {feedback}
      </p>
    </div>
  );
}

/**
 * The member's front photo for face check-in and its staff review (spec §4, decision 007): none yet
 * (upload), under review, rejected with the reason (upload again), passed.
 */
export function PhotoReviewCard(props: { photo: PhotoView }) {
  const { i18n } = useLingui();
  const p = props.photo;
  return (
    <section className="mx-4 mt-3 flex gap-3 rounded-xl bg-white p-3" aria-labelledby="photo-review" data-photo-status={p.status}>
      {p.photoId !== null && (
        <img
          src={`/api/customers/photo/image?v=${p.photoId}`}
          alt={i18n._(msg`我的正面照片`)}
          width={64}
          height={64}
          className="h-16 w-16 shrink-0 rounded-lg bg-black/5 object-cover"
        />
      )}
      <div className="min-w-0 flex-1">
        <div className="flex items-center justify-between gap-2">
          <h2 id="photo-review" className="font-semibold">
            <Trans>刷脸签到照片</Trans>
          </h2>
          <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs ${STATUS_TINTS[p.status]}`}>{i18n._(STATUS_LABELS[p.status])}</span>
        </div>
        <p className="mt-1 text-xs text-black/60">
          {p.status === 'none' && <Trans>上传一张本人正面免冠照片，门店审核通过后即可刷脸签到。</Trans>}
          {p.status === 'reviewing' && <Trans>门店工作人员正在审核您的照片，通过后即可刷脸签到。</Trans>}
          {p.status === 'passed' && <Trans>照片已通过审核，到店后可刷脸签到。如需更换请联系门店工作人员。</Trans>}
          {p.status === 'rejected' && <Trans>照片未通过审核，请按原因重新上传。</Trans>}
          {p.status === 'reopened' && <Trans>门店已允许您重新上传，新照片通过审核前原照片仍然有效。</Trans>}
        </p>
        {p.status === 'rejected' && p.reason && (
          <p className="mt-1 text-sm text-rose-700">
            <Trans>原因：</Trans>
            <span data-photo-reason>{p.reason}</span>
          </p>
        )}
        {p.canUpload && <PhotoUpload key={`${p.status}-${p.photoId}`} again={p.status !== 'none'} />}
      </div>
    </section>
  );
}
