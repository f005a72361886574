import { Trans } from '@lingui/react/macro';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { apiFrom } from '../../api-context';
import { NoticeList } from '../catalog/home/notice-list';

/** Every notice the server keeps for the member (system notices and their own, latest first). */
export async function loader({ context }: LoaderFunctionArgs) {
  const r = await apiFrom(context).catalog.notices();
  if (r.code !== 200) throw new Response(null, { status: r.code === 401 ? 401 : 503 });
  return { notices: r.data };
}

/** /sys/notification: the member's notices, e.g. "you are booked" after a queue promotion. */
export default function NotificationsScreen() {
  const { notices } = useLoaderData<typeof loader>();
  if (notices.length === 0) {
    return (
      <p className="px-8 py-12 text-center text-black/60" data-notices-empty>
        <Trans>还没有消息</Trans>
      </p>
    );
  }
  return (
    <div className="pb-6">
      <NoticeList notices={notices} limit={notices.length} open />
    </div>
  );
}
