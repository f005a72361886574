import { Trans, useLingui } from '@lingui/react/macro';
import { Block, Button, List, ListItem } from 'konsta/react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import Cookies from 'universal-cookie';
import { COOKIE_MAX_AGE_SECONDS } from '../../../domain/limits';
import { formatYuan } from '../../../domain/money';
import type { Profile } from '../../../api/auth';
import type { PhotoView } from '../../../api/booking';
import { photoCounts } from '../../../domain/photo-review';
import { apiFrom } from '../../api-context';
import { loginPath, sessionFrom } from '../../session/request-session';
import { SessionContext } from '../../session/session-provider';
import { useConfirm } from '../../ui/confirm';
import { dataOr } from '../../ui/data-or';
import { RouterLink } from '../../ui/router-link';
import { MY_DATA_PATH } from '../../../api/person';

/**
 * With a session, the member's profile (name, avatar) from GET /customers/me (a refusal falls back to
 * the cookies) and balance (a refusal leaves it out).
 */
export async function loader({ context }: LoaderFunctionArgs) {
  if (!sessionFrom(context).token)
    return { profile: null as Profile | null, balanceCents: null as number | null, photo: null as PhotoView | null };
  const api = apiFrom(context);
  const [profile, balance, photo] = await Promise.all([
    dataOr(api.auth.me(), null),
    dataOr(api.orders.balance(), null),
    dataOr(api.booking.photo(), null),
  ]);
  return { profile, balanceCents: balance?.balanceCents ?? null, photo };
}

/** Initials for a member without an avatar: the last two characters of a Chinese name, else the first letters. */
function initials(name: string): string {
  const s = name.trim();
  if (!s) return '?';
  if (/[\u4e00-\u9fff]/.test(s)) return s.slice(-2);
  return s
    .split(/\s+/)
    .map((w) => w[0]!.toUpperCase())
    .slice(0, 2)
    .join('');
}

/** The `lang` cookie (300 days), then a reload so the server renders the new language. */
function switchLanguage(lang: 'zh' | 'en') {
  new Cookies(undefined, { path: '/' }).set('lang', lang, { path: '/', maxAge: COOKIE_MAX_AGE_SECONDS, sameSite: 'lax' });
  window.location.reload();
}

function LanguageSwitch() {
  const { i18n } = useLingui();
  return (
    <List strong inset>
      <ListItem
        title={<Trans>语言 / Language</Trans>}
        after={
          <span className="flex gap-2">
            {(['zh', 'en'] as const).map((lang) => (
              <Button
                key={lang}
                small
                rounded
                inline
                outline={i18n.locale !== lang}
                className="!w-auto !px-3"
                aria-pressed={i18n.locale === lang}
                // each language named in itself, and marked so (a reader pronounces it right)
                lang={lang === 'zh' ? 'zh-CN' : 'en'}
                onClick={() => i18n.locale !== lang && switchLanguage(lang)}
              >
                {lang === 'zh' ? '中文' : 'English'}
              </Button>
            ))}
          </span>
        }
      />
    </List>
  );
}

/** /mine: a login prompt for visitors; the member's avatar, name, phone, level, logout and language. */
export default function MineScreen() {
  const { t } = useLingui();
  const { profile, balanceCents, photo } = useLoaderData<typeof loader>();
  const user = SessionContext.useSelector((s) => (s.matches('visitor') ? undefined : s.context.user));
  const loggingOut = SessionContext.useSelector((s) => s.matches('loggingOut'));
  const session = SessionContext.useActorRef();
  const confirm = useConfirm();

  if (!user) {
    return (
      <>
        <Block strong inset className="!mt-8 text-center">
          <div
            aria-hidden
            className="mx-auto mb-3 flex h-16 w-16 items-center justify-center rounded-full bg-black/5 text-2xl text-black/60"
          >
            ?
          </div>
          <p className="mb-4 text-black/70">
            <Trans>登录后查看会员卡、预约和个人信息</Trans>
          </p>
          <Button large rounded component={RouterLink} {...{ to: loginPath('/mine') }}>
            <Trans>登录 / 注册</Trans>
          </Button>
        </Block>
        <LanguageSwitch />
      </>
    );
  }

  const name = user.wxNicName || profile?.name || profile?.wxNickname || user.username;
  // the member's own reviewed photo first (decision 042), once staff passed it
  const own = photo && photoCounts(photo.status) ? `/api/customers/photo/image?v=${photo.photoId}` : undefined;
  const avatar = own || user.wxAvatar || profile?.wxAvatar || profile?.avatarUrl || undefined;
  const phone = profile?.phone || user.username;
  const level = profile?.level || user.userLevel;

  return (
    <>
      <Block strong inset className="!mt-6 flex items-center gap-4">
        {avatar ? (
          <img
            src={avatar}
            alt=""
            data-mine-avatar={own ? 'photo' : 'other'}
            width={64}
            height={64}
            className="h-16 w-16 shrink-0 rounded-full bg-black/5 object-cover"
          />
        ) : (
          <div
            aria-hidden
            className="flex h-16 w-16 shrink-0 items-center justify-center rounded-full bg-primary text-lg font-semibold text-white"
          >
            {initials(name)}
          </div>
        )}
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold" data-testid="member-name">
            {name}
          </p>
          <p className="text-sm text-black/60 tabular-nums">{phone}</p>
          {level && (
            <p className="mt-1 inline-block rounded bg-amber-100 px-2 text-xs text-amber-800">
              <Trans>会员等级 {level}</Trans>
            </p>
          )}
        </div>
      </Block>
      {profile?.role === 'teacher' || profile?.role === 'staff' ? (
        <List strong inset data-mine-work={profile.role}>
          {profile.role === 'teacher' ? (
            <ListItem link title={<Trans>老师主页</Trans>} linkComponent={RouterLink} linkProps={{ to: '/bindPage/teacherHome' }} />
          ) : (
            <ListItem link title={<Trans>员工工作台</Trans>} linkComponent={RouterLink} linkProps={{ to: '/staff' }} />
          )}
        </List>
      ) : null}
      <List strong inset data-mine-balance>
        <ListItem
          link
          title={<Trans>余额</Trans>}
          after={
            <span className="tabular-nums">
              {balanceCents !== null && <span data-balance>{formatYuan(balanceCents)} · </span>}
              <Trans>余额变动记录</Trans>
            </span>
          }
          linkComponent={RouterLink}
          linkProps={{ to: '/mine/balanceHistory' }}
        />
      </List>
      <List strong inset data-mine-goods>
        <ListItem link title={<Trans>我的会员卡</Trans>} linkComponent={RouterLink} linkProps={{ to: '/vipcard?tab=mine' }} />
        <ListItem link title={<Trans>我的课程</Trans>} linkComponent={RouterLink} linkProps={{ to: '/mycourse' }} />
        <ListItem link title={<Trans>我的订单</Trans>} linkComponent={RouterLink} linkProps={{ to: '/mine/orders' }} />
        <ListItem link title={<Trans>购买记录</Trans>} linkComponent={RouterLink} linkProps={{ to: '/myPurchaseHistory' }} />
        <ListItem link title={<Trans>我的优惠券</Trans>} linkComponent={RouterLink} linkProps={{ to: '/mine/coupons/all' }} />
        <ListItem link title={<Trans>我的投诉</Trans>} linkComponent={RouterLink} linkProps={{ to: '/complain' }} />
        <ListItem link title={<Trans>发票</Trans>} linkComponent={RouterLink} linkProps={{ to: '/invoice' }} />
      </List>
      <List strong inset>
        <ListItem link title={<Trans>个人信息</Trans>} linkComponent={RouterLink} linkProps={{ to: '/mine/improvePersonInfo' }} />
        <ListItem link title={<Trans>头像</Trans>} linkComponent={RouterLink} linkProps={{ to: '/mine/setavatar' }} />
        <ListItem link title={<Trans>修改密码</Trans>} linkComponent={RouterLink} linkProps={{ to: '/mine/changepassword' }} />
        <ListItem link title={<Trans>下载我的数据</Trans>} linkProps={{ href: MY_DATA_PATH, download: true, 'data-my-data': '' }} />
        <ListItem link title={<Trans>注销账号</Trans>} linkComponent={RouterLink} linkProps={{ to: '/mine/closeAccount' }} />
      </List>
      <LanguageSwitch />
      <Block className="!my-6">
        <Button
          large
          rounded
          outline
          disabled={loggingOut}
          onClick={async () => {
            if ((await confirm({ title: t`确定退出登录吗？` })).confirmed) session.send({ type: 'session.logout' });
          }}
        >
          {loggingOut ? <Trans>正在退出…</Trans> : <Trans>退出登录</Trans>}
        </Button>
      </Block>
    </>
  );
}
