import { Trans } from '@lingui/react/macro';
import { Block } from 'konsta/react';
import QRCode from 'qrcode';
import { useEffect } from 'react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { CheckinLink } from '../../../api/schedule';
import { apiFrom } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { classWhen, ForbiddenState, momentOf } from './schedule-labels';

/** How often the QR is renewed: each link works two minutes, so a photo of it is soon useless. */
export const QR_RENEW_MS = 60_000;

type ImgData = { link: CheckinLink | null; svg: string | null; forbidden: boolean };

/** The teacher's current or next class and its signed check-in link, drawn as a QR code (SVG) here so the first HTML has it. */
export async function loader({ context }: LoaderFunctionArgs) {
  const r = await apiFrom(context).schedule.checkinLink();
  if (r.code === 70008) return data<ImgData>({ link: null, svg: null, forbidden: true }, { status: 403 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  const svg = r.data.url ? await QRCode.toString(r.data.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) : null;
  return data<ImgData>({ link: r.data, svg, forbidden: false });
}

/**
 * /bindPage/teacherImg (spec "tutor QR code"; decision 029): the QR code members scan to
 * check in to the teacher's current or next class: a signed link to /signed valid two minutes,
 * renewed every minute, so a photo of it cannot be used later. Check-in itself opens an hour before
 * the start (the page says when) and the member's /signed page gives spec §8's refusals.
 */
export default function TeacherImgScreen() {
  const { link, svg, forbidden } = useLoaderData<typeof loader>();
  const renew = useStableRevalidate();
  useEffect(() => {
    if (forbidden) return undefined;
    const t = setInterval(renew, QR_RENEW_MS);
    return () => clearInterval(t);
  }, [forbidden, renew]);
  if (forbidden || !link) return <ForbiddenState forWhom="teacher" />;
  const c = link.class;
  return (
    <Block className="space-y-3 text-center" data-teacher-qr={c?.id ?? 'none'}>
      {c && svg ? (
        <>
          <h1 className="mt-4 text-xl font-semibold">{c.title}</h1>
          <p className="text-sm text-black/60 tabular-nums">
            {classWhen(c.startsAt, c.endsAt)} · {c.clubName} · {c.room}
          </p>
          <div
            className="mx-auto w-64 max-w-full bg-white p-2"
            data-qr-url={link.url ?? undefined}
            dangerouslySetInnerHTML={{ __html: svg }}
          />
          <p className="text-sm text-black/60">
            <Trans>请学员用微信扫一扫签到，二维码每分钟自动更新</Trans>
          </p>
          <p className="text-xs text-black/60 tabular-nums" data-opens-at>
            <Trans>签到时间：{momentOf(c.opensAt)} 起至下课</Trans>
          </p>
        </>
      ) : (
        <p className="py-10 text-black/60" data-no-class>
          <Trans>您近期没有要上的课程</Trans>
        </p>
      )}
      <p className="flex justify-center gap-6">
        <Link to="/bindPage/teacherHome" className="inline-flex min-h-11 items-center text-primary">
          <Trans>老师主页</Trans>
        </Link>
        <Link to="/bindPage/teacherConfirm" className="inline-flex min-h-11 items-center text-primary">
          <Trans>我的课表</Trans>
        </Link>
      </p>
    </Block>
  );
}
