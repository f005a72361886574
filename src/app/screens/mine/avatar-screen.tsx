import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { photoAvatarMachine } from '../../../../machines/photo-avatar.machine';
import { Errors } from '../../../domain/errors';
import { PHOTO_REFUSALS } from '../../ui/photo-refusal';
import { refusalMessage } from '../../ui/refusal-message';
import { browserApiOrThrow } from '../../api-context';
import { STATUS_LABELS, STATUS_TINTS } from '../booking/photo-review-card';
import { preparePhoto } from '../booking/prepare-photo';

/**
 * /mine/setavatar, /uploadTop and /uploadTop_yoga (spec §2, §4, §5, §8; decision 042): the member's
 * avatar, which is the front photo staff review for face check-in (one photo, one review). Shows the
 * review state; where an upload is open, a picture is chosen, resized on the phone and uploaded.
 */
export default function AvatarScreen() {
  const { i18n } = useLingui();
  const logic = useMemo(
    () =>
      photoAvatarMachine.provide({
        actors: {
          load: fromPromise(() => browserApiOrThrow().booking.photo()),
          resize: fromPromise(({ input }) => preparePhoto(input.file)),
          upload: fromPromise(({ input }) => browserApiOrThrow().booking.uploadPhoto(input.image)),
        },
      }),
    [],
  );
  const flow = useActorRef(logic);
  // the state's name, for the page's markup only: what the screen shows is read by tags and matches
  const step = useSelector(flow, (s) => s.value);
  const loading = useSelector(flow, (s) => s.matches('loading'));
  const unread = useSelector(flow, (s) => s.hasTag('unread'));
  const picking = useSelector(flow, (s) => s.hasTag('picking'));
  const busy = useSelector(flow, (s) => s.hasTag('busy'));
  const refused = useSelector(flow, (s) => s.hasTag('refused'));
  const unreachable = useSelector(flow, (s) => s.hasTag('unreachable'));
  const line = useSelector(flow, (s) =>
    s.matches('choosing')
      ? 'choosing'
      : s.matches('reviewing')
        ? 'reviewing'
        : s.matches('rejected')
          ? 'rejected'
          : s.matches('passed')
            ? 'passed'
            : s.matches('replaceable')
              ? 'replaceable'
              : null,
  );
  const resizing = useSelector(flow, (s) => s.matches('resizing'));
  const previewing = useSelector(flow, (s) => s.hasTag('previewing'));
  const chosen = useSelector(flow, (s) => s.context.image);
  const view = useSelector(flow, (s) => s.context.view);
  const code = useSelector(flow, (s) => s.context.errorCode);
  const status = view?.status ?? 'none';
  const shows = view?.photoId != null && !unread;

  return (
    <Block strong inset className="!mt-6" data-avatar-step={step}>
      <div className="flex items-center gap-4">
        {shows ? (
          <img
            src={`/api/customers/photo/image?v=${view!.photoId}`}
            alt={i18n._(msg`我的头像`)}
            width={96}
            height={96}
            className="h-24 w-24 shrink-0 rounded-full bg-black/5 object-cover"
            data-avatar-image
          />
        ) : (
          <div aria-hidden className="flex h-24 w-24 shrink-0 items-center justify-center rounded-full bg-black/5 text-3xl text-black/60">
            ?
          </div>
        )}
        <div className="min-w-0">
          <h2 className="font-semibold">
            <Trans>我的头像</Trans>
          </h2>
          {view && !loading && (
            <span className={`mt-1 inline-block rounded-full px-2 py-0.5 text-xs ${STATUS_TINTS[status]}`} data-avatar-status={status}>
              {i18n._(STATUS_LABELS[status])}
            </span>
          )}
        </div>
      </div>
      <p className="mt-3 text-sm text-black/60" data-avatar-line>
        {loading && <Trans>加载中…</Trans>}
        {line === 'choosing' && <Trans>请上传一张本人正面免冠照片，门店审核通过后作为头像，并用于刷脸签到。</Trans>}
        {line === 'reviewing' && <Trans>照片正在审核中，通过后即显示为头像。</Trans>}
        {line === 'rejected' && <Trans>照片未通过审核，请按原因重新上传。</Trans>}
        {line === 'passed' && <Trans>照片已通过审核。如需更换请联系门店工作人员。</Trans>}
        {line === 'replaceable' && <Trans>门店已允许您重新上传，新照片通过审核前原照片仍然有效。</Trans>}
      </p>
      {line === 'rejected' && view?.reason && (
        <p className="mt-1 text-sm text-rose-700">
          <Trans>原因：</Trans>
          <span data-avatar-reason>{view.reason}</span>
        </p>
      )}
      {previewing && chosen && (
        <section className="mt-3 rounded-xl bg-black/5 p-3" aria-label={i18n._(msg`确认提交照片`)} data-avatar-preview>
          <img
            src={`data:image/jpeg;base64,${chosen}`}
            alt={i18n._(msg`将提交的照片`)}
            width={96}
            height={96}
            className="h-24 w-24 rounded-full bg-white object-cover"
            data-avatar-preview-image
          />
          <p className="mt-2 text-sm" data-avatar-preview-rule>
            <Trans>照片提交后需门店审核，审核期间不能更换；通过后作为头像并用于刷脸签到，之后如需更换须联系门店工作人员。</Trans>
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button rounded inline className="!min-h-11 !w-auto px-5" onClick={() => flow.send({ type: 'confirm.accept' })}>
              <Trans>提交审核</Trans>
            </Button>
            <Button rounded inline outline className="!min-h-11 !w-auto px-5" onClick={() => flow.send({ type: 'confirm.dismiss' })}>
              <Trans>重新选择</Trans>
            </Button>
          </div>
        </section>
      )}
      <p role="alert" className="mt-2 min-h-5 text-sm text-rose-700" data-avatar-feedback>
        {refused ? i18n._(refusalMessage(code, PHOTO_REFUSALS)) : unreachable ? i18n._(Errors.network.message) : null}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        {(picking || busy) && (
          <label
            className={`inline-flex min-h-11 cursor-pointer items-center rounded-full bg-primary px-5 text-white ${busy ? 'opacity-60' : ''}`}
          >
            {resizing ? (
              <Trans>处理中…</Trans>
            ) : busy ? (
              <Trans>上传中…</Trans>
            ) : status === 'none' ? (
              <Trans>选择照片</Trans>
            ) : (
              <Trans>重新上传</Trans>
            )}
            <input
              type="file"
              name="avatar"
              accept="image/jpeg,image/png,image/webp"
              capture="user"
              className="sr-only"
              disabled={busy}
              data-avatar-input
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                e.currentTarget.value = '';
                if (file) flow.send({ type: 'file.chosen', file });
              }}
            />
          </label>
        )}
        {unreachable && (
          <Button rounded inline className="!min-h-11 !w-auto px-5" onClick={() => flow.send({ type: 'network.retry' })}>
            <Trans>重试</Trans>
          </Button>
        )}
        {line === 'reviewing' && (
          <Button rounded inline outline className="!min-h-11 !w-auto px-5" onClick={() => flow.send({ type: 'review.refresh' })}>
            <Trans>刷新审核结果</Trans>
          </Button>
        )}
        {/* passed: nothing more to do here; a change goes through a club's staff, so the way to the clubs, and back */}
        {line === 'passed' && (
          <>
            <Button component={Link} {...{ to: '/club' }} rounded inline className="!min-h-11 !w-auto px-5">
              <Trans>联系门店</Trans>
            </Button>
            <Button component={Link} {...{ to: '/mine' }} rounded inline outline className="!min-h-11 !w-auto px-5">
              <Trans>返回我的</Trans>
            </Button>
          </>
        )}
      </div>
    </Block>
  );
}
