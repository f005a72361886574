import { useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { CLASS_TYPES, dictLabel, type ClassTypeKey } from '../../../../domain/catalog';

/** Where each class type lives (spec §2 "Class types"): the regular-class schedule and the goods catalogues. */
const CLASS_TYPE_PATHS: Record<ClassTypeKey, string> = {
  workshop: '/greatworkshop',
  open: '/commonClass',
  private: '/personalClass',
  'small-group': '/primaryClass',
  regular: '/regularClass',
  training: '/tt',
};

const TINTS: Record<ClassTypeKey, string> = {
  workshop: 'bg-amber-100 text-amber-700',
  open: 'bg-sky-100 text-sky-700',
  private: 'bg-rose-100 text-rose-700',
  'small-group': 'bg-violet-100 text-violet-700',
  regular: 'bg-emerald-100 text-emerald-700',
  training: 'bg-orange-100 text-orange-700',
};

/**
 * One line icon per class type (24 x 24, drawn with the text colour): a glyph of the Chinese name
 * read as Chinese on an English screen, so each type has a picture instead.
 */
const ICONS: Record<ClassTypeKey, string[]> = {
  // a spark: something special, once
  workshop: ['M12 3l2.2 5.8L20 11l-5.8 2.2L12 19l-2.2-5.8L4 11l5.8-2.2z'],
  // three people: open to all
  open: ['M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M3 20a6 6 0 0 1 12 0', 'M16 5.5a3 3 0 0 1 0 5.5', 'M18 14.5a6 6 0 0 1 3 5.5'],
  // one person: one to one
  private: ['M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M4 21a8 8 0 0 1 16 0'],
  // two people: a small group
  'small-group': [
    'M8 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
    'M16 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
    'M2 20a6 6 0 0 1 12 0',
    'M10 20a6 6 0 0 1 12 0',
  ],
  // a calendar: the weekly schedule
  regular: ['M4 6h16v14H4z', 'M4 10h16', 'M8 3v4', 'M16 3v4'],
  // a mortarboard: teacher training
  training: ['M2 9l10-5 10 5-10 5z', 'M6 11v5c3 2 9 2 12 0v-5', 'M22 9v6'],
};

function ClassTypeIcon(props: { type: ClassTypeKey }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      focusable="false"
    >
      {ICONS[props.type].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}

/** The six class-type entries of the Homepage, three to a row. */
export function ClassTypeEntries() {
  const { i18n } = useLingui();
  const locale = i18n.locale === 'en' ? 'en' : 'zh';
  return (
    <nav className="grid-12 cols-3 mx-4 mt-4 gap-y-2 rounded-xl bg-white p-3">
      {CLASS_TYPES.map((t) => {
        const label = dictLabel(t, locale);
        return (
          <Link
            key={t.value}
            to={CLASS_TYPE_PATHS[t.value]}
            className="flex flex-col items-center gap-1.5 rounded-lg py-2 active:bg-black/5"
            data-class-type={t.value}
          >
            <span aria-hidden className={`flex h-11 w-11 items-center justify-center rounded-full ${TINTS[t.value]}`}>
              <ClassTypeIcon type={t.value} />
            </span>
            <span className="text-center text-xs leading-tight">{label}</span>
          </Link>
        );
      })}
    </nav>
  );
}
