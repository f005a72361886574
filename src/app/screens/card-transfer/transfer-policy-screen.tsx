import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle, Button, Checkbox } from 'konsta/react';
import { useState } from 'react';
import { Link, useLoaderData } from 'react-router-dom';
import { NotFoundState } from '../../ui/not-found-state';
import { TransferRefused } from '../cards/card-transfer-entry';
import { transferApplyPath, transferLoader, type TransferPageData } from './transfer-data';

export const loader = transferLoader;

/** /mine/transfer?id=: the transfer rules and policy (spec §5, §9); the member accepts it before applying. */
export default function TransferPolicyScreen() {
  const { card } = useLoaderData() as TransferPageData;
  const [agreed, setAgreed] = useState(false);
  if (!card)
    return <NotFoundState message={<Trans>没有找到这张会员卡</Trans>} backTo="/vipcard?tab=mine" backLabel={<Trans>我的会员卡</Trans>} />;
  const offer = card.offers.find((o) => o.operation === 'transfer');
  return (
    <article className="pb-6" data-transfer-policy={card.id}>
      <BlockTitle>
        <Trans>转让会员卡：{card.name}</Trans>
      </BlockTitle>
      <Block strong inset className="space-y-2 text-sm" data-transfer-rules>
        <p>
          <Trans>1. 会员卡只能转让给已注册的会员，不能转让给自己；每张会员卡只能转让一次，转让得到的会员卡不能再转让。</Trans>
        </p>
        <p>
          <Trans>2. 亲情卡不能转让；团购卡在团购期内及团购结束后3天内不能转让。</Trans>
        </p>
        <p>
          <Trans>3. 会员卡上还有已预约或正在上的课程时不能转让，请先取消预约。</Trans>
        </p>
        <p>
          <Trans>
            4. 申请需填写受让人的姓名、身份证号，并上传身份证照片和本人照片，由门店审核；审核通过后，剩余次数和有效期转入受让人的新卡。
          </Trans>
        </p>
      </Block>
      {offer && !offer.allowed ? (
        <Block className="space-y-3">
          <TransferRefused card={card} offer={offer} />
        </Block>
      ) : (
        <Block className="space-y-3">
          <label className="flex items-center gap-2 text-sm">
            <Checkbox checked={agreed} onChange={() => setAgreed(!agreed)} name="agreed" />
            <Trans>我已阅读并同意会员卡转让规则</Trans>
          </label>
          {agreed ? (
            <Button large rounded component={Link} {...{ to: transferApplyPath(card.id) }} data-action="transfer-continue">
              <Trans>同意并继续</Trans>
            </Button>
          ) : (
            <Button large rounded disabled data-action="transfer-continue">
              <Trans>同意并继续</Trans>
            </Button>
          )}
        </Block>
      )}
    </article>
  );
}
