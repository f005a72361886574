import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** Shown when a screen or its loader fails: a clear message and a way back, never a blank page. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Block className="text-center">
      <p className="my-8 text-lg">{notFound ? <Trans>没有找到这个页面</Trans> : <Trans>页面加载失败，请稍后再试</Trans>}</p>
      <Button href="/" component="a" className="mx-auto max-w-48">
        <Trans>返回首页</Trans>
      </Button>
    </Block>
  );
}
