import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/**
 * Shown when a screen or its loader fails: a clear message and a way on, never a blank page. A
 * failure that is not "no such page" (most often the screen's code lost on a bad network) offers to
 * try again where the member is, which loads the page afresh, before the way back to the Homepage.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Block className="text-center">
      <p className="my-8 text-lg">{notFound ? <Trans>没有找到这个页面</Trans> : <Trans>页面加载失败，请稍后再试</Trans>}</p>
      {!notFound && (
        <Button className="mx-auto mb-3 max-w-48" data-action="retry-page" onClick={() => window.location.reload()}>
          <Trans>重试</Trans>
        </Button>
      )}
      <Button href="/" component="a" className="mx-auto max-w-48" outline={!notFound}>
        <Trans>返回首页</Trans>
      </Button>
    </Block>
  );
}
