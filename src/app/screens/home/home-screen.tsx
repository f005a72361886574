import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle, List, ListItem } from 'konsta/react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { apiFrom } from '../../api-context';

export async function loader({ context }: LoaderFunctionArgs) {
  const api = apiFrom(context);
  const clubs = await api.catalog.clubs();
  return { clubs: clubs.data ?? [] };
}

/** Homepage (spec §2). */
export default function HomeScreen() {
  const { clubs } = useLoaderData<typeof loader>();
  return (
    <>
      <BlockTitle>
        <Trans>会馆</Trans>
      </BlockTitle>
      <List strong inset>
        {clubs.map((c) => (
          <ListItem key={c.id} title={c.name} subtitle={c.address} />
        ))}
      </List>
      <Block />
    </>
  );
}
