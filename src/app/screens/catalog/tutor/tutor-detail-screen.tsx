import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle, Chip, List, ListItem } from 'konsta/react';
import { data, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { apiFrom } from '../../../api-context';
import { dataOr, parseId } from '../../../ui/data-or';
import { NotFoundState } from '../../../ui/not-found-state';
import { RouterLink } from '../../../ui/router-link';
import { styleLabels } from './style-labels';

export async function loader({ context, params }: LoaderFunctionArgs) {
  const id = parseId(params.id);
  if (id === null) return data({ teacher: null, styles: [] }, { status: 404 });
  const api = apiFrom(context);
  const [r, styles] = await Promise.all([api.catalog.teacher(id), dataOr(api.catalog.dict('style'), [])]);
  if (r.code === 404 || r.code === 70004 || r.code === 400) return data({ teacher: null, styles: [] }, { status: 404 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return { teacher: r.data, styles };
}

/** /tutor/tutorDetail/:id (numeric): a teacher's photo, styles, experience, biography and club. */
export default function TutorDetailScreen() {
  const { teacher, styles } = useLoaderData<typeof loader>();
  if (!teacher) return <NotFoundState message={<Trans>没有找到这位导师</Trans>} backTo="/tutor" backLabel={<Trans>查看全部导师</Trans>} />;

  return (
    <article>
      <Block className="!mt-6 flex items-center gap-4">
        <img src={teacher.photo} alt="" width={96} height={96} decoding="async" className="h-24 w-24 shrink-0 rounded-full bg-black/5" />
        <div className="min-w-0">
          <h1 className="text-xl font-semibold">{teacher.name}</h1>
          <p className="mt-1 text-sm text-black/60">
            <Trans>教龄 {teacher.years} 年</Trans>
          </p>
          <div className="mt-2 flex flex-wrap gap-1.5">
            {styleLabels(teacher.styles, styles).map((s) => (
              <Chip key={s} className="!h-6 text-xs">
                {s}
              </Chip>
            ))}
          </div>
        </div>
      </Block>
      {teacher.bio && (
        <>
          <BlockTitle>
            <Trans>导师简介</Trans>
          </BlockTitle>
          <Block strong inset>
            <p className="leading-relaxed">{teacher.bio}</p>
          </Block>
        </>
      )}
      {teacher.club && (
        <>
          <BlockTitle>
            <Trans>所在门店</Trans>
          </BlockTitle>
          <List strong inset>
            <ListItem
              link
              linkComponent={RouterLink}
              linkProps={{ to: `/club/detail?id=${teacher.club.id}` }}
              title={teacher.club.name}
              subtitle={teacher.club.address}
            />
          </List>
        </>
      )}
    </article>
  );
}
