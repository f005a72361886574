import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle, Button, List, ListItem } from 'konsta/react';
import { Link, useLoaderData } from 'react-router-dom';
import { CARD_TYPES, dictLabel } from '../../../domain/catalog';
import { lastValidDay, shanghaiDate } from '../../../domain/time';
import { NotFoundState } from '../../ui/not-found-state';
import { ActivateCard } from './activate-card';
import { CardAdviserEntry } from './card-adviser';
import { CardExtend } from './card-extend';
import { CardFamilyEntry } from './card-family';
import { CardGiftEntry } from './card-gift';
import { CardFrequencyText } from './card-facts';
import { CardFreeze } from './card-freeze';
import { cardDetailLoader, type CardDetailData } from './card-detail-data';
import { CardHeader } from './card-header';
import { CardHistoryList } from './card-history-row';
import { CARD_STATUS_LABELS } from './card-labels';
import { CardRefundEntry } from './card-refund-entry';
import { CardTransferEntry } from './card-transfer-entry';
import { cardActions, cardValidity, type CardAction } from './card-view-rules';

/** History lines shown on the card page; the rest are on /mine/CardDetailPage. */
const HISTORY_PREVIEW = 5;

export const loader = cardDetailLoader(HISTORY_PREVIEW);

/** The card's history page. */
export function cardHistoryPath(id: number): string {
  return `/mine/CardDetailPage?id=${id}`;
}

function ActionLabel(props: { op: CardAction['op'] }) {
  if (props.op === 'activate') return <Trans>去约课（首次预约自动激活）</Trans>;
  if (props.op === 'buy-again') return <Trans>购买新卡</Trans>;
  return null;
}

/**
 * /mine/carddetail?id= (spec §3 card): name, number, studio, status, extension count, frequency,
 * validity start and end; the actions the card chart allows; the latest history lines.
 */
export default function CardDetailScreen() {
  const { card: c, status, history, today } = useLoaderData() as CardDetailData;
  const { i18n } = useLingui();
  if (!c || !status)
    return <NotFoundState message={<Trans>没有找到这张会员卡</Trans>} backTo="/vipcard?tab=mine" backLabel={<Trans>我的会员卡</Trans>} />;
  const locale = i18n.locale === 'en' ? 'en' : 'zh';
  const type = CARD_TYPES.find((t) => t.value === c.cardType);
  const v = cardValidity({ ...c, status });
  const date = (iso: string | null) => (iso ? shanghaiDate(iso) : '—');
  const actions = cardActions({ id: c.id, status, operations: c.operations });

  return (
    <article className="pb-6" data-card-detail={c.id}>
      <CardHeader card={c} status={status} />
      <List strong inset className="!my-4" data-card-facts>
        <ListItem title={<Trans>卡名称</Trans>} after={c.name} />
        <ListItem title={<Trans>卡号</Trans>} after={<span className="tabular-nums">{c.number}</span>} />
        {type && <ListItem title={<Trans>卡种</Trans>} after={dictLabel(type, locale)} />}
        <ListItem title={<Trans>门店</Trans>} after={<span data-card-club>{c.clubName ?? <Trans>全部门店</Trans>}</span>} />
        <ListItem title={<Trans>状态</Trans>} after={i18n._(CARD_STATUS_LABELS[status])} />
        <ListItem
          title={<Trans>次数</Trans>}
          after={
            <span className="tabular-nums" data-card-frequency>
              <CardFrequencyText card={{ ...c, status }} />
            </span>
          }
        />
        {v.kind === 'ended' ? (
          <ListItem title={<Trans>有效期</Trans>} after={<Trans>已停止使用</Trans>} />
        ) : v.kind === 'dates' ? (
          <>
            <ListItem
              title={<Trans>生效日期</Trans>}
              after={
                <span className="tabular-nums" data-card-valid-from>
                  {date(v.from)}
                </span>
              }
            />
            <ListItem
              title={<Trans>到期日期</Trans>}
              after={
                <span className="tabular-nums" data-card-valid-until>
                  {v.until ? lastValidDay(new Date(v.until)) : '—'}
                </span>
              }
            />
          </>
        ) : (
          <ListItem
            title={<Trans>有效期</Trans>}
            after={v.days !== null ? <Trans>首次预约后生效，有效{v.days}天</Trans> : <Trans>首次预约后生效</Trans>}
          />
        )}
        <ListItem
          title={<Trans>延期次数</Trans>}
          after={
            <span className="tabular-nums" data-card-extensions>
              {c.extensionCount}
            </span>
          }
        />
      </List>
      {c.application && (
        <Block className="rounded-xl bg-amber-50 py-3 text-sm text-amber-900" data-card-application={c.application}>
          {c.application === 'refund' ? (
            <Trans>这张卡的退款申请正在审核：审核完成前不能预约、激活或办理其他业务。</Trans>
          ) : (
            <Trans>这张卡的转让申请正在审核：审核完成前不能预约、激活或办理其他业务。</Trans>
          )}
        </Block>
      )}
      {actions.length > 0 && (
        <Block className="space-y-3" data-card-actions>
          {actions.map((a) =>
            a.op === 'activate' ? (
              <div key={a.op} className="space-y-3">
                <ActivateCard key={`${c.id}-${status}`} cardId={c.id} status={status} />
                <Button large rounded outline component={Link} {...{ to: a.to }} data-action="book-to-activate">
                  <ActionLabel op={a.op} />
                </Button>
              </div>
            ) : (
              <Button key={a.op} large rounded component={Link} {...{ to: a.to }} data-action={a.op}>
                <ActionLabel op={a.op} />
              </Button>
            ),
          )}
        </Block>
      )}
      {c.offers.length > 0 && (
        <Block className="space-y-3" data-card-manage>
          <CardFreeze key={`${c.id}-${status}-${c.frozenFrom}-${c.frozenUntil}`} card={c} today={today} />
          <CardExtend key={`${c.id}-${status}-${c.validUntil}-${c.extensionCount}`} card={c} today={today} />
          <CardTransferEntry card={c} />
          <CardRefundEntry card={c} />
          <CardAdviserEntry key={`${c.id}-${status}-${c.adviser?.id ?? 0}`} card={c} />
          <CardFamilyEntry key={`family-${c.id}-${status}`} card={c} />
          <CardGiftEntry key={`gift-${c.id}-${status}`} card={c} />
        </Block>
      )}
      <BlockTitle className="flex items-center justify-between">
        <span>
          <Trans>会员卡动态</Trans>
        </span>
        {history && history.total > history.list.length && (
          <Link to={cardHistoryPath(c.id)} className="text-sm font-normal text-primary" data-card-history-all>
            <Trans>查看全部（{history.total}条）</Trans>
          </Link>
        )}
      </BlockTitle>
      {history ? (
        <CardHistoryList items={history.list} />
      ) : (
        <p className="py-6 text-center text-sm text-black/60">
          <Trans>使用记录加载失败，请稍后再试</Trans>
        </p>
      )}
    </article>
  );
}
