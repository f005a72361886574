import { Trans } from '@lingui/react/macro';
import { BlockTitle } from 'konsta/react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { Club } from '../../../api/catalog';
import { apiFrom } from '../../api-context';
import { dataOr } from '../../ui/data-or';
import { ComplaintView } from './complaint-view';

export const loader = async ({ context }: LoaderFunctionArgs) => ({ clubs: await dataOr(apiFrom(context).catalog.clubs(), [] as Club[]) });

/**
 * /complain/createcomplain (requiresLogin): write a complaint (spec §5 content not empty), optionally
 * naming a club and with up to three photos; once filed it waits for the reply here.
 */
export default function CreateComplainScreen() {
  const { clubs } = useLoaderData() as { clubs: Club[] };
  return (
    <article className="pb-6">
      <BlockTitle>
        <Trans>我要投诉</Trans>
      </BlockTitle>
      <ComplaintView complaint={null} clubs={clubs} />
    </article>
  );
}
