import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle, Button, List, ListItem } from 'konsta/react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { formatDistance } from '../../../../domain/distance';
import { apiFrom } from '../../../api-context';
import { parseId } from '../../../ui/data-or';
import { NotFoundState } from '../../../ui/not-found-state';
import { RouterLink } from '../../../ui/router-link';
import { useClubDistances } from '../../../ui/use-club-distances';

export async function loader({ context, request }: LoaderFunctionArgs) {
  const id = parseId(new URL(request.url).searchParams.get('id'));
  if (id === null) return data({ club: null }, { status: 404 });
  const r = await apiFrom(context).catalog.club(id);
  if (r.code === 404 || r.code === 70004 || r.code === 400) return data({ club: null }, { status: 404 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return { club: r.data };
}

/** /club/detail?id=: one club, its hours, address, phone, introduction and teachers. */
export default function ClubDetailScreen() {
  const { club } = useLoaderData<typeof loader>();
  const { distances } = useClubDistances();
  if (!club) return <NotFoundState message={<Trans>没有找到这家门店</Trans>} backTo="/club" backLabel={<Trans>查看全部门店</Trans>} />;
  const far = formatDistance(distances?.get(club.id));

  return (
    <article>
      <img
        src={club.coverImage}
        alt=""
        width={750}
        height={420}
        decoding="async"
        className="block aspect-[750/420] h-auto w-full bg-black/5 object-cover"
      />
      <Block className="!my-4">
        <h1 className="text-xl font-semibold">{club.name}</h1>
        <p className="mt-1 text-sm text-black/60">
          {club.city} · <Trans>营业时间 {club.openingHours}</Trans>
          {far && <span className="ml-2 tabular-nums">{far}</span>}
        </p>
      </Block>
      <List strong inset>
        <ListItem title={<Trans>地址</Trans>} after={<span className="max-w-[60vw] text-right text-sm">{club.address}</span>} />
        <ListItem
          title={<Trans>电话</Trans>}
          after={
            <a href={`tel:${club.phone.replace(/[^\d+]/g, '')}`} className="text-primary">
              {club.phone}
            </a>
          }
        />
      </List>
      {club.intro && (
        <>
          <BlockTitle>
            <Trans>门店介绍</Trans>
          </BlockTitle>
          <Block strong inset>
            <p className="leading-relaxed">{club.intro}</p>
          </Block>
        </>
      )}
      {club.teachers.length > 0 && (
        <>
          <BlockTitle>
            <Trans>门店导师</Trans>
          </BlockTitle>
          <List strong inset>
            {club.teachers.map((t) => (
              <ListItem
                key={t.id}
                link
                linkComponent={RouterLink}
                linkProps={{ to: `/tutor/tutorDetail/${t.id}` }}
                title={t.name}
                subtitle={<Trans>教龄 {t.years} 年</Trans>}
                media={
                  <img
                    src={t.photo}
                    alt=""
                    width={44}
                    height={44}
                    loading="lazy"
                    decoding="async"
                    className="h-11 w-11 rounded-full bg-black/5"
                  />
                }
              />
            ))}
          </List>
        </>
      )}
      <Block>
        <Button large rounded component={Link} {...{ to: '/takecourse/takelistm' }}>
          <Trans>去约课</Trans>
        </Button>
      </Block>
    </article>
  );
}
