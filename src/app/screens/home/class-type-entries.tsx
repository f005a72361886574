import { useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { CLASS_TYPES, dictLabel, type ClassTypeKey } from '../../../domain/catalog';

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

/** The six class-type entries of the Homepage, three to a row. */
export function ClassTypeEntries() {
  const { i18n } = useLingui();
  const locale = i18n.locale === 'en' ? 'en' : 'zh';
  return (
    <nav className="mx-4 mt-4 grid grid-cols-3 gap-2 rounded-xl bg-white p-3">
      {CLASS_TYPES.map((t) => {
        const label = dictLabel(t, locale);
        return (
          <Link key={t.value} to={CLASS_TYPE_PATHS[t.value]} className="flex flex-col items-center gap-1.5 rounded-lg py-2 active:bg-black/5" data-class-type={t.value}>
            <span aria-hidden className={`flex h-11 w-11 items-center justify-center rounded-full text-lg font-semibold ${TINTS[t.value]}`}>
              {t.zh.slice(0, 1)}
            </span>
            <span className="text-center text-xs leading-tight">{label}</span>
          </Link>
        );
      })}
    </nav>
  );
}
