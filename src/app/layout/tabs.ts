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
  // the `footer tab` context lets English use words short enough for a 320 px wide bar
  { key: 'home', to: '/', label: msg({ message: '首页', context: 'footer tab' }), activeUnder: [] },
  { key: 'book', to: '/takecourse/takelistm', label: msg({ message: '约课', context: 'footer tab' }), activeUnder: ['/takecourse'] },
  { key: 'cards', to: '/vipcard', label: msg({ message: '会员卡', context: 'footer tab' }), activeUnder: ['/vipcard'] },
  { key: 'courses', to: '/mycourse', label: msg({ message: '我的课程', context: 'footer tab' }), activeUnder: ['/mycourse'] },
  { key: 'mine', to: '/mine', label: msg({ message: '我的', context: 'footer tab' }), activeUnder: ['/mine'] },
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
