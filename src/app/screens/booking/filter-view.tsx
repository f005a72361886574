import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import type { ReactNode } from 'react';
import { Form, Link, useLoaderData, useNavigate, type LoaderFunctionArgs } from 'react-router-dom';
import type { ScheduleQuery } from '../../../api/booking';
import type { Club, DictItem } from '../../../api/catalog';
import { DIFFICULTIES, dictLabel, EFFECTS, TIMES_OF_DAY } from '../../../domain/catalog';
import { apiFrom } from '../../api-context';
import { clockFrom } from '../../app-clock';
import { dataOr } from '../../ui/data-or';
import { DURATIONS, filterReturn, filterSearch, readScheduleQuery, shanghaiToday, stripDays, weekdayOf } from './schedule-filter';

interface FilterData {
  q: ScheduleQuery & { date: string };
  today: string;
  /** the schedule the filter was opened from (`?back=`) */
  back: string;
  clubs: Club[];
  styles: DictItem[];
}

/** The filter page's loader: the current filter (from the URL), the studios and the styles. */
export async function filterLoader({ context, request }: LoaderFunctionArgs): Promise<FilterData> {
  const api = apiFrom(context);
  const today = shanghaiToday(clockFrom(context));
  const params = new URL(request.url).searchParams;
  const q = readScheduleQuery(params, today);
  const [clubs, styles] = await Promise.all([dataOr(api.catalog.clubs(), []), dataOr(api.catalog.dict('style'), [])]);
  return { q, today, back: filterReturn(params), clubs, styles };
}

const WEEKDAYS: MessageDescriptor[] = [msg`周日`, msg`周一`, msg`周二`, msg`周三`, msg`周四`, msg`周五`, msg`周六`];

interface Choice {
  value: string;
  label: ReactNode;
}

/** One filter group of chips (radio buttons): "all" and one per value; works without JavaScript. */
function ChipGroup(props: { name: string; legend: ReactNode; choices: Choice[]; value: string | undefined; all?: boolean }) {
  const chips: Choice[] = props.all === false ? props.choices : [{ value: '', label: <Trans>不限</Trans> }, ...props.choices];
  return (
    <fieldset className="mx-4 mt-4">
      <legend className="mb-2 text-sm font-semibold text-black/70">{props.legend}</legend>
      <div className="flex flex-wrap gap-2">
        {chips.map((c) => (
          <label key={c.value} className="cursor-pointer">
            <input
              type="radio"
              name={props.name}
              value={c.value}
              defaultChecked={(props.value ?? '') === c.value}
              className="peer sr-only"
            />
            <span className="inline-block rounded-full bg-white px-3 py-1 text-sm text-black/70 peer-checked:bg-primary peer-checked:text-white peer-focus-visible:ring-2">
              {c.label}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The course filter of spec §3 (studio, week, duration, difficulty, style, effect, keyword, time of
 * day): a GET form to `target` (default: the schedule it was opened from), so the chosen filter lands
 * in the URL and the server renders the list; with JavaScript, only the conditions that are set.
 */
export function FilterView(props: { target?: string }) {
  const d = useLoaderData() as FilterData;
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const target = props.target ?? d.back;
  const locale = i18n.locale === 'en' ? 'en' : 'zh';
  const q = d.q;
  return (
    <Form
      method="get"
      action={target}
      className="pb-8"
      data-course-filter
      onSubmit={(e) => {
        e.preventDefault();
        void navigate(target + filterSearch(new FormData(e.currentTarget), d.today));
      }}
    >
      <ChipGroup
        name="clubId"
        legend={<Trans>门店</Trans>}
        value={q.clubId?.toString()}
        choices={d.clubs.map((c) => ({ value: String(c.id), label: c.name }))}
      />
      <ChipGroup
        name="date"
        all={false}
        legend={<Trans>星期</Trans>}
        value={q.date}
        choices={stripDays(d.today).map((day) => ({
          value: day,
          label: `${day === d.today ? i18n._(msg`今天`) : i18n._(WEEKDAYS[weekdayOf(day)]!)} ${day.slice(5)}`,
        }))}
      />
      <ChipGroup
        name="courseAt"
        legend={<Trans>时段</Trans>}
        value={q.courseAt}
        choices={TIMES_OF_DAY.map((t) => ({ value: t.value, label: dictLabel(t, locale) }))}
      />
      <ChipGroup
        name="courseTimelong"
        legend={<Trans>时长</Trans>}
        value={q.courseTimelong?.toString()}
        choices={DURATIONS.map((m) => ({ value: String(m), label: <Trans>{m}分钟</Trans> }))}
      />
      <ChipGroup
        name="level"
        legend={<Trans>难度</Trans>}
        value={q.level}
        choices={DIFFICULTIES.map((t) => ({ value: t.value, label: dictLabel(t, locale) }))}
      />
      <ChipGroup
        name="catgory"
        legend={<Trans>风格</Trans>}
        value={q.catgory}
        choices={d.styles.map((s) => ({ value: s.value, label: s.label }))}
      />
      <ChipGroup
        name="ability"
        legend={<Trans>功效</Trans>}
        value={q.ability}
        choices={EFFECTS.map((t) => ({ value: t.value, label: dictLabel(t, locale) }))}
      />
      <label className="mx-4 mt-4 block">
        <span className="mb-2 block text-sm font-semibold text-black/70">
          <Trans>关键词</Trans>
        </span>
        <input
          type="search"
          name="keywords"
          defaultValue={q.keywords ?? ''}
          maxLength={40}
          placeholder={i18n._(msg`课程、导师或风格`)}
          className="block h-10 w-full rounded-lg bg-white px-3 text-base"
        />
      </label>
      <Block className="flex gap-3">
        <Button large rounded outline component={Link} {...{ to: `${target}?date=${q.date}` }} className="flex-1">
          <Trans>重置</Trans>
        </Button>
        <Button large rounded type="submit" className="flex-1" data-filter-submit>
          <Trans>确定</Trans>
        </Button>
      </Block>
    </Form>
  );
}
