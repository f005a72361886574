import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

export type TabKey = 'home' | 'book' | 'cards' | 'courses' | 'mine';

export interface FooterTab {
  key: TabKey;
  /** where the tab goes */
  to: string;
  label: MessageDescriptor;
  /** path prefixes (besides `to`) under which the tab shows as active */
  activeUnder: readonly string[];
}

/** The five footer tabs of spec §2, in order. */
export const FOOTER_TABS: readonly FooterTab[] = [
  { key: 'home', to: '/', label: msg`首页`, activeUnder: [] },
  { key: 'book', to: '/takecourse/takelistm', label: msg`约课`, activeUnder: ['/takecourse'] },
  { key: 'cards', to: '/vipcard', label: msg`会员卡`, activeUnder: ['/vipcard'] },
  { key: 'courses', to: '/mycourse', label: msg`我的课程`, activeUnder: ['/mycourse'] },
  { key: 'mine', to: '/mine', label: msg`我的`, activeUnder: ['/mine'] },
];

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * The tab that shows as active for a path (spec §2: the active tab follows the path; booking is also
 * active on /takecourse). Home is active on the Homepage only; other paths have no active tab.
 */
export function activeTabFor(pathname: string): TabKey | undefined {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (p === '/' || p === '') return 'home';
  return FOOTER_TABS.find((t) => t.key !== 'home' && (under(p, t.to) || t.activeUnder.some((a) => under(p, a))))?.key;
}
