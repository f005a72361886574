import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { complaintMachine } from '../../../../machines/complaint.machine';
import type { MyComplaint } from '../../../api/complaints';
import type { Club } from '../../../api/catalog';
import { COMPLAINT_MAX_CHARS, COMPLAINT_MAX_PHOTOS } from '../../../domain/complaint';
import { newIntentKey } from '../../../domain/intent-key';
import { shanghaiFormat } from '../../../domain/time';
import { browserApiOrThrow } from '../../api-context';
import { refusalMessage } from '../../ui/refusal-message';
import { preparePhoto } from '../booking/prepare-photo';
import { ComplaintBadges } from './complaint-badges';

const NETWORK = msg`网络无法连接`;

/**
 * One complaint driven by the complaint machine (decision 033): written and filed
 * (/complain/createcomplain), awaited with a check for the reply, then rated (/complain?id=).
 */
export function ComplaintView({ complaint, clubs }: { complaint: MyComplaint | null; clubs: Club[] }) {
  const { i18n } = useLingui();
  // one intent per tap: a retry of the same complaint or answer is the same request (the same key, the photos uploaded once)
  const intent = useRef({ fileKey: '', imageIds: null as number[] | null, rateKey: '' });
  const logic = useMemo(
    () =>
      complaintMachine.provide({
        actors: {
          file: fromPromise(async ({ input }) => {
            const api = browserApiOrThrow();
            if (!intent.current.imageIds) {
              const ids: number[] = [];
              for (const image of input.photos) {
                const up = await api.complaints.uploadImage(image);
                if (up.code !== 200) return { ...up, data: null as never };
                ids.push(up.data.imageId);
              }
              intent.current.imageIds = ids;
            }
            return api.complaints.file(
              { content: input.content, clubId: input.clubId, imageIds: intent.current.imageIds },
              intent.current.fileKey,
            );
          }),
          load: fromPromise(({ input }) => browserApiOrThrow().complaints.detail(input.id)),
          rate: fromPromise(({ input }) => browserApiOrThrow().complaints.rate(input.id, input.satisfied, intent.current.rateKey)),
        },
      }),
    [],
  );
  const actor = useActorRef(logic, { input: { complaint } });
  const state = useSelector(actor, (s) => s);
  const [unreadable, setUnreadable] = useState(false);
  const c = state.context;
  const code = c.errorCode;
  const photoCount = c.photos.length;
  const rate = (satisfied: boolean) => {
    intent.current.rateKey = newIntentKey();
    actor.send({ type: 'reply.rate', satisfied });
  };

  if (state.matches('composing') || state.matches('filing') || state.matches('fileUnreachable')) {
    const sending = state.matches('filing');
    const feedback = state.matches({ composing: 'empty' })
      ? refusalMessage(70140)
      : state.matches({ composing: 'refused' })
        ? refusalMessage(code)
        : state.matches('fileUnreachable')
          ? NETWORK
          : null;
    return (
      <form
        className="space-y-3 p-4"
        noValidate
        data-complaint-form
        onSubmit={(e) => {
          e.preventDefault();
          intent.current.fileKey = newIntentKey();
          intent.current.imageIds = null;
          actor.send({ type: 'complaint.submit' });
        }}
      >
        <label className="block text-sm">
          <span className="mb-1 block font-medium">
            <Trans>投诉内容</Trans>
          </span>
          <textarea
            name="content"
            className="h-32 w-full rounded-lg border border-black/10 p-2"
            maxLength={COMPLAINT_MAX_CHARS}
            value={c.content}
            disabled={sending}
            onChange={(e) => actor.send({ type: 'content.change', value: e.target.value })}
          />
        </label>
        <label className="block text-sm">
          <span className="mb-1 block font-medium">
            <Trans>门店（选填）</Trans>
          </span>
          <select
            name="club"
            className="w-full rounded-lg border border-black/10 p-2"
            value={c.clubId ?? ''}
            disabled={sending}
            onChange={(e) => actor.send({ type: 'club.change', clubId: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">{i18n._(msg`不指定门店`)}</option>
            {clubs.map((club) => (
              <option key={club.id} value={club.id}>
                {club.name}
              </option>
            ))}
          </select>
        </label>
        <div className="text-sm">
          <span className="mb-1 block font-medium">
            <Trans>照片（选填，最多3张）</Trans>
          </span>
          <p data-complaint-photos={photoCount}>
            <Trans>已选 {photoCount} 张</Trans>
          </p>
          {/* the chosen photos as the member will send them, each removable until the complaint is sent */}
          <ul className="mt-2 flex flex-wrap gap-2" aria-label={i18n._(msg`已选照片`)}>
            {c.photos.map((image, index) => (
              <li key={`${index}:${image.length}`} className="relative h-20 w-20 overflow-hidden rounded-lg bg-black/5">
                <img
                  src={`data:image/jpeg;base64,${image}`}
                  alt={i18n._(msg`第${index + 1}张照片`)}
                  className="h-full w-full object-cover"
                />
                {!sending && (
                  <button
                    type="button"
                    className="absolute top-0 right-0 flex h-11 w-11 items-start justify-end p-1"
                    aria-label={i18n._(msg`删除第${index + 1}张照片`)}
                    onClick={() => actor.send({ type: 'photo.remove', index })}
                  >
                    <span aria-hidden className="flex h-6 w-6 items-center justify-center rounded-full bg-black/60 text-white">
                      ×
                    </span>
                  </button>
                )}
              </li>
            ))}
            {c.photos.length < COMPLAINT_MAX_PHOTOS && !sending ? (
              <li>
                <label className="flex h-20 w-20 cursor-pointer flex-col items-center justify-center rounded-lg border border-dashed border-primary text-primary">
                  <span aria-hidden className="text-2xl leading-none">
                    +
                  </span>
                  <span className="text-xs">
                    <Trans>添加照片</Trans>
                  </span>
                  <input
                    type="file"
                    accept="image/*"
                    className="sr-only"
                    data-complaint-photo-input
                    onChange={async (e) => {
                      const file = e.target.files?.[0];
                      e.target.value = '';
                      if (!file) return;
                      try {
                        setUnreadable(false);
                        actor.send({ type: 'photo.add', image: (await preparePhoto(file)).image });
                      } catch {
                        setUnreadable(true);
                      }
                    }}
                  />
                </label>
              </li>
            ) : null}
          </ul>
          {unreadable ? (
            <p className="text-rose-600">
              <Trans>无法读取这张图片，请换一张照片</Trans>
            </p>
          ) : null}
        </div>
        <p role="alert" className="min-h-5 text-sm text-rose-600" data-complaint-feedback>
          {feedback ? i18n._(feedback) : ''}
        </p>
        {state.matches('fileUnreachable') ? (
          <Button large rounded type="button" onClick={() => actor.send({ type: 'network.retry' })}>
            <Trans>重试</Trans>
          </Button>
        ) : (
          <Button large rounded type="submit" disabled={sending}>
            {sending ? <Trans>提交中…</Trans> : <Trans>提交投诉</Trans>}
          </Button>
        )}
      </form>
    );
  }

  const mine = c.complaint!;
  const waiting = state.matches('awaitingReply') || state.matches('checking');
  const rating = state.matches('rating');
  const line = state.matches({ awaitingReply: 'stillWaiting' })
    ? msg`还没有回复，有回复时会通知您`
    : state.matches({ awaitingReply: 'unreachable' }) || state.matches('rateUnreachable')
      ? NETWORK
      : state.matches({ replied: 'refused' })
        ? refusalMessage(code)
        : null;
  return (
    <Block
      strong
      inset
      className="space-y-2 text-sm"
      data-complaint={mine.id}
      data-complaint-view={String(state.value && JSON.stringify(state.value))}
    >
      <ComplaintBadges complaint={mine} />
      <p className="whitespace-pre-wrap">{mine.content}</p>
      {mine.clubName ? <p className="text-black/60">{mine.clubName}</p> : null}
      <p className="text-xs text-black/60">{shanghaiFormat(new Date(mine.createdAt), 'YYYY-MM-DD HH:mm')}</p>
      {mine.imageIds.length > 0 ? (
        <div className="flex gap-2">
          {mine.imageIds.map((id) => (
            <img key={id} src={`/api/customers/complaints/image/${id}`} alt="" className="h-16 w-16 rounded object-cover" />
          ))}
        </div>
      ) : null}
      {mine.reply !== null ? (
        <div className="rounded-lg bg-black/5 p-2" data-complaint-reply>
          <p className="font-medium">
            <Trans>门店回复</Trans>
          </p>
          <p className="whitespace-pre-wrap">{mine.reply}</p>
        </div>
      ) : null}
      <p role="alert" className="min-h-5 text-rose-600" data-complaint-feedback>
        {line ? i18n._(line) : ''}
      </p>
      {waiting ? (
        <Button rounded inline disabled={state.matches('checking')} onClick={() => actor.send({ type: 'reply.check' })}>
          {state.matches('checking') ? <Trans>查询中…</Trans> : <Trans>查看是否有回复</Trans>}
        </Button>
      ) : null}
      {state.matches('replied') || rating ? (
        <div className="flex gap-2" data-complaint-rate>
          <p className="self-center">
            <Trans>您对回复满意吗？</Trans>
          </p>
          <Button rounded inline disabled={rating} onClick={() => rate(true)}>
            <Trans>满意</Trans>
          </Button>
          <Button rounded inline outline disabled={rating} onClick={() => rate(false)}>
            <Trans>不满意</Trans>
          </Button>
        </div>
      ) : null}
      {state.matches('rateUnreachable') ? (
        <Button rounded inline onClick={() => actor.send({ type: 'network.retry' })}>
          <Trans>重试</Trans>
        </Button>
      ) : null}
      <Link to="/complain" className="block text-sky-700">
        <Trans>我的投诉</Trans>
      </Link>
    </Block>
  );
}
