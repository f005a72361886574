import { Trans } from '@lingui/react/macro';
import { Block } from 'konsta/react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { TeacherClass, TeacherHome } from '../../../api/schedule';
import { Errors } from '../../../domain/errors';
import { apiFrom } from '../../api-context';
import { TeacherClassLink } from '../schedule/schedule-labels';

type HomeData = { home: TeacherHome | null; forbidden: boolean };

/** The teacher's day and what waits for their answer; anyone but a bound teacher gets the not-a-teacher state. */
export async function loader({ context }: LoaderFunctionArgs) {
  const r = await apiFrom(context).schedule.teacherHome();
  if (r.code === Errors.forbidden.code) return data<HomeData>({ home: null, forbidden: true }, { status: 403 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return data<HomeData>({ home: r.data, forbidden: false });
}

/**
 * /bindPage/teacherHome (decision 097): where a bound teacher lands after binding and from Mine:
 * today's classes, the classes waiting for their confirmation with each deadline, and the check-in
 * QR one tap away, so no teacher page has to be reached by typing its address.
 */
export default function TeacherHomeScreen() {
  const { home, forbidden } = useLoaderData<typeof loader>();
  if (forbidden || !home) return <NotTeacher />;
  const name = home.teacherName;
  const waitingCount = home.waiting.length;
  return (
    <article className="space-y-4 pb-8" data-teacher-home={home.today}>
      <Block className="!mt-4 !mb-0">
        <h1 className="text-lg font-semibold">
          <Trans>{name}老师，您好</Trans>
        </h1>
      </Block>
      <Block className="!my-0">
        {/* a link, not a button: it goes to a page (a reader says so, and it opens in a new tab too) */}
        <Link
          to="/bindPage/teacherImg"
          className="flex min-h-12 items-center justify-center rounded-full bg-primary px-6 text-base font-medium text-white active:opacity-80"
          data-action="show-qr"
        >
          <Trans>出示签到二维码</Trans>
        </Link>
      </Block>
      <section aria-labelledby="teacher-today" data-today-classes>
        <h2 id="teacher-today" className="px-4 text-base font-semibold">
          <Trans>今天的课程</Trans> <span className="text-sm font-normal text-black/60 tabular-nums">{home.today}</span>
        </h2>
        {home.todayClasses.length === 0 ? (
          <p className="px-4 py-4 text-sm text-black/60" data-empty="today">
            <Trans>今天没有安排给您的课程</Trans>
          </p>
        ) : (
          <ClassList classes={home.todayClasses} />
        )}
      </section>
      <section aria-labelledby="teacher-waiting" data-waiting-classes>
        <h2 id="teacher-waiting" className="px-4 text-base font-semibold">
          <Trans>等待您确认的课程（{waitingCount}）</Trans>
        </h2>
        {home.waiting.length === 0 ? (
          <p className="px-4 py-4 text-sm text-black/60" data-empty="waiting">
            <Trans>没有等待您确认的课程</Trans>
          </p>
        ) : (
          <ClassList classes={home.waiting} deadline />
        )}
      </section>
      <Block className="!my-0 text-center">
        <Link to="/bindPage/teacherConfirm" className="inline-flex min-h-11 items-center text-primary underline">
          <Trans>我的课表</Trans>
        </Link>
      </Block>
    </article>
  );
}

/** Classes, each opening its confirm form; with `deadline`, each says by when the teacher must answer. */
function ClassList(props: { classes: TeacherClass[]; deadline?: boolean }) {
  return (
    <ul className="space-y-2 px-4 pt-2">
      {props.classes.map((c) => (
        <li key={c.id}>
          <TeacherClassLink c={c} deadline={props.deadline} />
        </li>
      ))}
    </ul>
  );
}

/** Someone who is not a bound teacher opened the home: said, with the way to bind and the way home. */
function NotTeacher() {
  return (
    <Block className="text-center" data-not-teacher>
      <h1 role="alert" className="mt-10 text-lg font-semibold">
        <Trans>此页面仅供已绑定的老师使用</Trans>
      </h1>
      <p className="mt-2 mb-6 text-sm text-black/60">
        <Trans>您当前登录的账号不是老师账号。老师请用门店发放的绑定码绑定微信。</Trans>
      </p>
      <Link
        to="/bindPage/teacherBind"
        className="mx-auto max-w-60 flex min-h-12 items-center justify-center rounded-full bg-primary px-6 text-base font-medium text-white active:opacity-80"
      >
        <Trans>老师绑定</Trans>
      </Link>
      <Link to="/" className="mt-4 inline-flex min-h-11 items-center text-primary underline">
        <Trans>返回首页</Trans>
      </Link>
    </Block>
  );
}
