import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import { useState } from 'react';
import { Link, useLoaderData, useLocation, type LoaderFunctionArgs } from 'react-router-dom';
import type { ActivityDetail } from '../../../api/catalog';
import { newIntentKey } from '../../../domain/intent-key';
import { shanghaiDateSpan } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { parseId } from '../../ui/data-or';
import { NotFoundState } from '../../ui/not-found-state';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { loginPath } from '../../session/request-session';
import { refusalMessage } from '../../ui/refusal-message';

export async function loader({ context, request }: LoaderFunctionArgs): Promise<{ activity: ActivityDetail | null }> {
  const id = parseId(new URL(request.url).searchParams.get('id'));
  if (id === null) return { activity: null };
  const r = await apiFrom(context).catalog.activity(id);
  if (r.code === 404) return { activity: null };
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return { activity: r.data };
}

/**
 * /activity/activityDdetail?id= (decision 033): one activity with its text; one that takes sign-ups
 * shows its places left and signs me up (never over: the server counts the places under a lock), or
 * says why not (full, over, already signed up; a visitor logs in first).
 */
export default function ActivityDetailScreen() {
  const { activity: a } = useLoaderData() as { activity: ActivityDetail | null };
  const { i18n } = useLingui();
  const { pathname, search } = useLocation();
  const revalidate = useStableRevalidate();
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<number | null>(null);
  if (!a) return <NotFoundState message={<Trans>没有找到这个活动</Trans>} backTo="/activity" backLabel={<Trans>活动列表</Trans>} />;
  const left = a.placesLeft;
  const places = a.places;
  const signUp = async () => {
    setSending(true);
    setError(null);
    try {
      const r = await browserApiOrThrow().catalog.signUp(a.id, newIntentKey());
      if (r.code !== 200) setError(r.code);
    } catch {
      setError(70002);
    } finally {
      setSending(false);
      revalidate();
    }
  };
  const shown = error ?? (a.signup && !a.signup.allowed && !a.signedUp ? a.signup.code : null);
  return (
    <article className="pb-6" data-activity-detail={a.id}>
      <img src={a.image} alt="" className="aspect-[2/1] w-full bg-black/5 object-cover" />
      <Block className="space-y-2 text-sm">
        <h1 className="text-lg font-semibold">{a.title}</h1>
        <p className="text-xs text-black/60 tabular-nums">{shanghaiDateSpan(a.startsAt, a.endsAt)}</p>
        <p className="whitespace-pre-wrap">{a.body}</p>
      </Block>
      {a.signup ? (
        <Block strong inset className="space-y-2 text-sm" data-activity-signup>
          <p data-places-left={left ?? ''}>
            <Trans>
              共{places}个名额，剩余{left}个
            </Trans>
          </p>
          {a.signedUp ? (
            <p className="font-medium text-emerald-700" data-signed-up>
              <Trans>您已报名</Trans>
            </p>
          ) : null}
          {shown !== null && shown !== 70001 ? (
            <p role="alert" className="text-rose-600">
              {i18n._(refusalMessage(shown))}
            </p>
          ) : null}
          {a.signup.code === 70001 ? (
            <Button rounded component={Link} {...{ to: loginPath(pathname + search) }}>
              <Trans>登录后报名</Trans>
            </Button>
          ) : !a.signedUp ? (
            <Button rounded disabled={!a.signup.allowed || sending} onClick={() => void signUp()}>
              {sending ? <Trans>提交中…</Trans> : <Trans>立即报名</Trans>}
            </Button>
          ) : null}
        </Block>
      ) : null}
    </article>
  );
}
