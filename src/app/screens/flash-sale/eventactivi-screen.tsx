import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { FlashSaleActivity } from '../../../api/flash-sale';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import { ORDER_PAY_WITHIN_MS } from '../../../domain/pricing';
import { apiFrom } from '../../api-context';
import { parseId } from '../../ui/data-or';
import { NotFoundState } from '../../ui/not-found-state';

interface RulesData {
  sale: FlashSaleActivity | null;
}

/** The sale of `?id=` (or the live or next one), for its dates and numbers. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get('id');
  const id = raw === null ? undefined : parseId(raw);
  if (id === null) return data<RulesData>({ sale: null }, { status: 404 });
  const r = await apiFrom(context).flashSale.activity(id);
  if (r.code === 404 || r.code === 400 || r.code === 70004) return data<RulesData>({ sale: null }, { status: 404 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return data<RulesData>({ sale: r.data });
}

/** Shanghai wall time of an instant, "YYYY-MM-DD HH:MM". */
const at = (iso: string) => `${shanghaiDate(new Date(iso))} ${shanghaiClock(new Date(iso))}`;

/** /eventactivi (spec §2): the flash sale's rules, with this sale's dates and numbers. */
export default function EventRulesScreen() {
  const { sale } = useLoaderData() as RulesData;
  if (!sale) return <NotFoundState message={<Trans>没有找到这场抢购</Trans>} backTo="/" backLabel={<Trans>返回首页</Trans>} />;
  const start = at(sale.startsAt);
  const end = at(sale.endsAt);
  const max = sale.maxNumber;
  const minutes = Math.round(ORDER_PAY_WITHIN_MS / 60_000);
  return (
    <article data-event-rules={sale.id}>
      <Block className="!my-4">
        <h1 className="text-xl font-semibold">
          <Trans>{sale.title}：活动规则</Trans>
        </h1>
      </Block>
      <Block strong inset className="!my-4 text-sm leading-relaxed">
        <ol className="list-decimal space-y-2 pl-5">
          <li>
            <Trans>
              活动时间：{start} 至 {end}（北京时间）。
            </Trans>
          </li>
          <li>
            <Trans>本场限量{max}张，先到先得，抢完即止；页面上的“已抢/总数”会实时更新。</Trans>
          </li>
          <li>
            <Trans>每位会员限购一张。同一账号多次点击或在多台设备上同时下单，只会生成一笔订单。</Trans>
          </li>
          <li>
            <Trans>需登录并同意购买协议后下单；会员价以下单时服务器计算为准。</Trans>
          </li>
          <li>
            <Trans>下单即占用一个名额，请在{minutes}分钟内完成支付；超时未支付或取消的订单会自动释放名额，其他会员可以继续抢购。</Trans>
          </li>
          <li>
            <Trans>名额抢完后显示“手速不够快，商品已被抢光了”；如果您下单时最后的名额刚被别人抢走，会提示“您慢了一步”。</Trans>
          </li>
          <li>
            <Trans>购买的次卡为未激活状态，首次预约成功后自动激活并开始计算有效期。</Trans>
          </li>
        </ol>
      </Block>
      <Block className="!my-6">
        <Button large rounded component={Link} {...{ to: `/event11?id=${sale.id}` }} data-back-to-sale>
          <Trans>返回抢购</Trans>
        </Button>
      </Block>
    </article>
  );
}
