import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { BlockTitle } from 'konsta/react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { GoodsItem } from '../../../../api/catalog-goods';
import type { Paged } from '../../../../domain/envelope';
import { apiFrom, browserApiOrThrow } from '../../../api-context';
import { EmptyList, PagedList } from '../../../ui/paged-list';
import { COURSE_PAGES, courseDetailPath, type CourseKind } from './course-kinds';
import { CourseRow } from './course-row';

/** Courses per page of a catalogue. */
export const CATALOGUE_PAGE_SIZE = 10;

/** A class-type catalogue's loader: page 0 of the goods of that kind on shelf. */
export function catalogueLoader(kind: CourseKind) {
  return async ({ context }: LoaderFunctionArgs): Promise<{ page: Paged<GoodsItem> }> => {
    const r = await apiFrom(context).goods.list({ kind, pagenum: 0, pagesize: CATALOGUE_PAGE_SIZE });
    if (r.code !== 200) throw new Response(null, { status: 503 });
    return { page: r.data };
  };
}

/** A class-type catalogue (spec §2 "Class types"): its goods, paged as the member scrolls. */
export function CatalogueView(props: { kind: CourseKind }) {
  const { page } = useLoaderData() as { page: Paged<GoodsItem> };
  const { i18n } = useLingui();
  const pages = COURSE_PAGES[props.kind];
  return (
    <div className="pb-6" data-catalogue={props.kind}>
      <BlockTitle>
        <h1>{i18n._(pages.heading)}</h1>
      </BlockTitle>
      <PagedList
        name={`catalogue-${props.kind}`}
        first={page}
        fetchPage={(pagenum, pagesize) => browserApiOrThrow().goods.list({ kind: props.kind, pagenum, pagesize })}
        itemKey={(g) => g.id}
        row={(g) => <CourseRow g={g} to={courseDetailPath(props.kind, g.id)} />}
        empty={
          <EmptyList
            name={`catalogue-${props.kind}`}
            message={i18n._(pages.empty)}
            action={
              <Link to="/" className="text-primary">
                <Trans>返回首页</Trans>
              </Link>
            }
          />
        }
      />
    </div>
  );
}
