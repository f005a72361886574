import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, List, ListItem } from 'konsta/react';
import { useState } from 'react';
import { data, Link, useLoaderData, useLocation, type LoaderFunctionArgs } from 'react-router-dom';
import type { ClubDetail, TeacherDetail } from '../../../../api/catalog';
import type { GoodsDetail } from '../../../../api/catalog-goods';
import { shanghaiDateSpan } from '../../../../domain/time';
import { requiredChoice, type GoodsChoice } from '../../../../domain/goods-choice';
import { apiFrom } from '../../../api-context';
import { loginPath } from '../../../session/request-session';
import { useIsMember } from '../../../session/session-provider';
import { dataOr, parseId } from '../../../ui/data-or';
import { NotFoundState } from '../../../ui/not-found-state';
import { BuyBar } from './buy-bar';
import { PhasePicker, TeacherPicker } from './choice-picker';
import { placesLeft } from './course-row';
import { COURSE_PAGES, type CourseKind } from './course-kinds';

interface CourseDetailData {
  goods: GoodsDetail | null;
  teacher: TeacherDetail | null;
  club: ClubDetail | null;
  /** a choice carried in the URL (?phaseId=, ?teacherId=), e.g. coming back from the agreement */
  choice: GoodsChoice;
}

const none: CourseDetailData = { goods: null, teacher: null, club: null, choice: {} };

/** A class-type detail's loader: the goods of `?id=` (of this kind, else a 404 state), its teacher and club. */
export function courseDetailLoader(kind: CourseKind) {
  return async ({ context, request }: LoaderFunctionArgs) => {
    const q = new URL(request.url).searchParams;
    const id = parseId(q.get('id'));
    if (id === null) return data<CourseDetailData>(none, { status: 404 });
    const api = apiFrom(context);
    const r = await api.goods.detail(id);
    if (r.code === 404 || r.code === 400 || r.code === 70004 || (r.code === 200 && r.data.kind !== kind))
      return data<CourseDetailData>(none, { status: 404 });
    if (r.code !== 200) throw new Response(null, { status: 503 });
    const g = r.data;
    const [teacher, club] = await Promise.all([
      g.teacherId !== null ? dataOr(api.catalog.teacher(g.teacherId), null) : null,
      g.clubId !== null ? dataOr(api.catalog.club(g.clubId), null) : null,
    ]);
    const choice: GoodsChoice = {};
    const phaseId = parseId(q.get('phaseId'));
    const teacherId = parseId(q.get('teacherId'));
    if (phaseId !== null) choice.phaseId = phaseId;
    if (teacherId !== null) choice.teacherId = teacherId;
    return data<CourseDetailData>({ goods: g, teacher, club, choice });
  };
}

/**
 * The one detail layout of the class-type catalogues: picture, name, dates, places, price, club,
 * teacher, what it includes, the phase or teacher to choose, the description, and the buy bar.
 */
export function CourseDetailView(props: { kind: CourseKind }) {
  const d = useLoaderData() as CourseDetailData;
  const { i18n } = useLingui();
  const member = useIsMember();
  const location = useLocation();
  const [choice, setChoice] = useState<GoodsChoice>(d.choice);
  const pages = COURSE_PAGES[props.kind];
  const g = d.goods;
  if (!g) return <NotFoundState message={i18n._(pages.notFound)} backTo={pages.list} backLabel={i18n._(pages.heading)} />;
  const left = placesLeft(g);
  const need = requiredChoice(g);

  return (
    <article className="pb-[calc(96px+env(safe-area-inset-bottom))]" data-course-detail={g.id}>
      <img
        src={g.image}
        alt=""
        width={750}
        height={390}
        decoding="async"
        className="block aspect-[690/360] h-auto w-full bg-black/5 object-cover"
      />
      <Block className="!my-4">
        <h1 className="text-xl font-semibold">{g.name}</h1>
        {g.startsAt && g.endsAt && <p className="mt-1 text-sm text-black/60 tabular-nums">{shanghaiDateSpan(g.startsAt, g.endsAt)}</p>}
        {!member && (
          <Link to={loginPath(location.pathname + location.search)} className="mt-2 inline-block text-xs text-primary" data-login-for-price>
            <Trans>登录查看会员价</Trans>
          </Link>
        )}
      </Block>
      <List strong inset className="!my-4">
        {d.club && (
          <ListItem
            title={<Trans>门店</Trans>}
            after={
              <Link to={`/club/detail?id=${d.club.id}`} className="max-w-[60vw] truncate text-primary">
                {d.club.name}
              </Link>
            }
          />
        )}
        {d.club && (
          <ListItem title={<Trans>地址</Trans>} after={<span className="max-w-[60vw] text-right text-sm">{d.club.address}</span>} />
        )}
        {d.teacher && need !== 'teacher' && (
          <ListItem
            title={<Trans>导师</Trans>}
            after={
              <Link to={`/tutor/tutorDetail/${d.teacher.id}`} className="text-primary">
                {d.teacher.name}
              </Link>
            }
          />
        )}
        {g.uses !== null && <ListItem title={<Trans>课时</Trans>} after={<Trans>{g.uses}节</Trans>} />}
        {g.validityDays !== null && <ListItem title={<Trans>有效期</Trans>} after={<Trans>购买后{g.validityDays}天</Trans>} />}
        {left !== null && (
          <ListItem
            title={<Trans>名额</Trans>}
            after={
              <span className="tabular-nums">
                <Trans>
                  已售{g.sellNumber}，剩余{left}
                </Trans>
              </span>
            }
          />
        )}
        {g.newCustomersOnly && <ListItem title={<Trans>购买限制</Trans>} after={<Trans>新会员专享</Trans>} />}
        {g.perPersonLimit !== null && <ListItem title={<Trans>限购</Trans>} after={<Trans>每人限购{g.perPersonLimit}份</Trans>} />}
      </List>
      {need === 'phase' && g.phases && (
        <PhasePicker phases={g.phases} chosen={choice.phaseId} member={member} onChoose={(phaseId) => setChoice({ phaseId })} />
      )}
      {need === 'teacher' && g.teachers && (
        <TeacherPicker teachers={g.teachers} chosen={choice.teacherId} onChoose={(teacherId) => setChoice({ teacherId })} />
      )}
      {g.description && (
        <Block strong inset className="!my-4 text-sm leading-relaxed whitespace-pre-line" data-description>
          {g.description}
        </Block>
      )}
      <BuyBar goods={g} choice={choice} member={member} />
    </article>
  );
}
