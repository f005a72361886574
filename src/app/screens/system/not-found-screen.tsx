import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import { Link } from 'react-router-dom';

/** The not-found page: unbuilt and unknown routes land here (status 404 on the server). */
export default function NotFoundScreen() {
  return (
    <Block className="text-center">
      <p className="my-8 text-lg">
        <Trans>没有找到这个页面</Trans>
      </p>
      <Button component={Link} {...{ to: '/' }} className="mx-auto max-w-48">
        <Trans>返回首页</Trans>
      </Button>
    </Block>
  );
}
