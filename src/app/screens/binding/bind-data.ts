import { data, type LoaderFunctionArgs } from 'react-router-dom';
import type { BindStatus } from '../../../api/binding';
import { apiFrom } from '../../api-context';
import { cookiesFrom } from '../../session/request-session';

/** What the /bindPage screens read: the status, or the refusal code when the lookup failed (60009). */
export type BindPageData = { status: BindStatus; failed: null } | { status: null; failed: number };

/**
 * The binding status of this browser (GET /bind/status): the open id of the silent login, the
 * logged-in teacher's or staff member's binding, the new-teacher request sent from here. On the
 * server render the request's cookies go as the query; the browser sends its cookies itself.
 */
export async function bindStatusLoader({ context }: LoaderFunctionArgs) {
  const cookies = cookiesFrom(context);
  const q = typeof document === 'undefined' ? { openid: cookies.openId || undefined, key: cookies.bindRequest || undefined } : {};
  try {
    const r = await apiFrom(context).binding.status(q);
    if (r.code === 200) return data<BindPageData>({ status: r.data, failed: null });
    return data<BindPageData>({ status: null, failed: r.code }, { status: 503 });
  } catch {
    return data<BindPageData>({ status: null, failed: 70002 }, { status: 503 });
  }
}

/** The silent login again (decision 003), coming back to `from`: the retry of "empty open id". */
export const silentLoginAgain = (from: string) => `/api/oauth/wechat/authorize?from=${encodeURIComponent(from)}`;
