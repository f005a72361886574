import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle } from 'konsta/react';

/** /takecourse/bookcourse/membersNotice: the member notice a booking must agree to (spec §5). */
export default function MembersNoticeScreen() {
  return (
    <article className="pb-6">
      <BlockTitle>
        <Trans>会员须知</Trans>
      </BlockTitle>
      <Block strong inset>
        <ol className="list-decimal space-y-2 pl-5 leading-relaxed">
          <li>
            <Trans>
              预约以日历日计算（北京时间）：一级会员可预约今天和明天的课程，其他会员可预约今天起3天内的课程；已开始的课程不能预约。
            </Trans>
          </li>
          <li>
            <Trans>
              预约需选择一张可用的会员卡。次卡每次预约扣除一次，取消预约后退回；未激活的卡在首次预约成功时激活，有效期自激活起计算。
            </Trans>
          </li>
          <li>
            <Trans>
              课程约满时可加入排队。有会员取消后，系统按排队顺序为会员卡仍然可用的会员自动预约并发送通知；自动预约后，与该课程时间冲突的其他排队将自动取消。
            </Trans>
          </li>
          <li>
            <Trans>请在课程开始前取消预约或排队；课程开始后不能取消。预约后未到课将记为未签到。</Trans>
          </li>
          <li>
            <Trans>周末卡仅限周末预约，闲时卡仅限规定时段预约，体验卡仅限受赠的朋友使用。</Trans>
          </li>
          <li>
            <Trans>请提前10分钟到店签到，穿着舒适的运动服装，课前2小时避免进食过饱。</Trans>
          </li>
        </ol>
      </Block>
    </article>
  );
}
