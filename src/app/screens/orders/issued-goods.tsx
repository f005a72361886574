import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import type { Order } from '../../../api/orders';
import { myCardPath } from '../cards/my-card-row';

/** What a paid order issued, one tap away: the card it became, or my courses (order detail offers what can be done). */
export function IssuedGoods(props: { order: Pick<Order, 'issuedCardId' | 'issuedCourseId'> }) {
  const { issuedCardId, issuedCourseId } = props.order;
  if (issuedCardId === null && issuedCourseId === null) return null;
  return (
    <p className="my-2 text-center">
      {issuedCardId !== null ? (
        <Link to={myCardPath(issuedCardId)} className="inline-flex min-h-11 items-center px-4 text-primary" data-action="view-issued-card">
          <Trans>查看这张会员卡</Trans>
        </Link>
      ) : (
        <Link to="/mycourse" className="inline-flex min-h-11 items-center px-4 text-primary" data-action="view-issued-course">
          <Trans>查看我的课程</Trans>
        </Link>
      )}
    </p>
  );
}
