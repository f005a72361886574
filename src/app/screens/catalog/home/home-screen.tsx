import { Trans } from '@lingui/react/macro';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { SearchResult } from '../../../../api/catalog';
import { HOME_ACTIVITY_PAGE_SIZE } from '../../../../domain/limits';
import { apiFrom } from '../../../api-context';
import { dataOr } from '../../../ui/data-or';
import { ActivityList } from './activity-list';
import { BannerCarousel } from './banner-carousel';
import { ClassTypeEntries } from './class-type-entries';
import { HomeClubs } from './home-clubs';
import { NoticeList } from './notice-list';
import { SearchBox } from './search-box';
import { SearchResults } from './search-results';
import { SurveyPrompt } from './survey-prompt';

/**
 * Everything the Homepage shows, fetched in parallel on the server so its first HTML carries it.
 * Each part may be missing (an empty list) without failing the page. `?keywords=` adds a search.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const api = apiFrom(context);
  const keywords = (new URL(request.url).searchParams.get('keywords') ?? '').trim().slice(0, 50);
  const [banners, notices, activities, clubs, search] = await Promise.all([
    dataOr(api.catalog.banners(), []),
    dataOr(api.catalog.notices(), []),
    dataOr(api.catalog.activities({ pagenum: 0, pagesize: HOME_ACTIVITY_PAGE_SIZE }), null),
    dataOr(api.catalog.clubs(), []),
    keywords ? dataOr<SearchResult | null>(api.catalog.search(keywords), null) : Promise.resolve(null),
  ]);
  return { banners, notices, activities: activities?.list ?? [], clubs, keywords, search };
}

/** Homepage (spec §2): search, banners, class types, notices, activities, clubs; the survey for members. */
export default function HomeScreen() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="pb-4">
      <SearchBox key={d.keywords} keywords={d.keywords} />
      {d.keywords ? (
        <SearchResults keywords={d.keywords} result={d.search} />
      ) : (
        <>
          <BannerCarousel banners={d.banners} />
          <ClassTypeEntries />
          <NoticeList notices={d.notices} />
          <ActivityList activities={d.activities} />
          <HomeClubs clubs={d.clubs} />
          <p className="mt-6 flex justify-center gap-6 text-sm text-black/60">
            <Link to="/about">
              <Trans>关于我们</Trans>
            </Link>
            <Link to="/qa">
              <Trans>常见问题</Trans>
            </Link>
          </p>
        </>
      )}
      <SurveyPrompt />
    </div>
  );
}
