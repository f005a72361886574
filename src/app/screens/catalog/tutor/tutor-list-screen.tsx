import { Trans } from '@lingui/react/macro';
import { BlockTitle } from 'konsta/react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { apiFrom } from '../../../api-context';
import { dataOr } from '../../../ui/data-or';
import { styleLabels } from './style-labels';

export async function loader({ context }: LoaderFunctionArgs) {
  const api = apiFrom(context);
  const [r, styles] = await Promise.all([api.catalog.teachers(), dataOr(api.catalog.dict('style'), [])]);
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return { teachers: r.data, styles };
}

/** /tutor: the chain's teachers, two to a row. */
export default function TutorListScreen() {
  const { teachers, styles } = useLoaderData<typeof loader>();
  return (
    <>
      <BlockTitle>
        <Trans>导师团队（{teachers.length}）</Trans>
      </BlockTitle>
      <ul className="grid-12 cols-2 gap-y-3 px-4 pb-4">
        {teachers.map((t) => (
          <li key={t.id}>
            <Link
              to={`/tutor/tutorDetail/${t.id}`}
              className="block overflow-hidden rounded-xl bg-white active:opacity-80"
              data-teacher={t.id}
            >
              <img
                src={t.photo}
                alt=""
                width={240}
                height={240}
                loading="lazy"
                decoding="async"
                className="block aspect-square h-auto w-full bg-black/5"
              />
              <span className="block p-2.5">
                <span className="block truncate font-semibold">{t.name}</span>
                <span className="mt-0.5 block truncate text-xs text-black/60">{styleLabels(t.styles, styles).join(' · ')}</span>
                <span className="mt-0.5 block truncate text-xs text-black/60">
                  <Trans>教龄 {t.years} 年</Trans>
                  {t.clubName ? ` · ${t.clubName}` : ''}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {teachers.length === 0 && (
        <p className="p-8 text-center text-black/60">
          <Trans>暂无导师</Trans>
        </p>
      )}
    </>
  );
}
