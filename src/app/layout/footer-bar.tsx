import { useLingui } from '@lingui/react/macro';
import { Icon, Tabbar, TabbarLink } from 'konsta/react';
import { memo, useCallback, useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { useLocation, useNavigation } from 'react-router-dom';
import { PaintFirstLink } from '../ui/paint-first-link';
import { useBookedCount } from '../session/session-provider';
import { activeTabFor, FOOTER_TABS, type FooterTab as Tab, type TabKey } from './tabs';

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

/** Small inline icons (no icon font: nothing more to download). */
const ICONS: Record<TabKey, ReactNode> = {
  home: <path d="M4 11.5 12 5l8 6.5V20a1 1 0 0 1-1 1h-4.5v-5.5h-5V21H5a1 1 0 0 1-1-1z" />,
  book: (
    <>
      <rect x="4" y="5.5" width="16" height="15" rx="2" />
      <path d="M8 3.5v4M16 3.5v4M4 10h16M9 14.5l2 2 4-4" />
    </>
  ),
  cards: (
    <>
      <rect x="3" y="6" width="18" height="13" rx="2" />
      <path d="M3 10.5h18M7 15h4" />
    </>
  ),
  courses: (
    <>
      <path d="M5 4.5h11a3 3 0 0 1 3 3V20H8a3 3 0 0 1-3-3z" />
      <path d="M5 17a3 3 0 0 1 3-3h11M9 8.5h6" />
    </>
  ),
  mine: (
    <>
      <circle cx="12" cy="8.5" r="3.8" />
      <path d="M4.5 20.5c.8-4 3.8-6 7.5-6s6.7 2 7.5 6" />
    </>
  ),
};

/** The footer bar of spec §2: five tabs, the active one follows the path, the booking tab shows the booked count. */
export function FooterBar() {
  const { i18n, t } = useLingui();
  const { pathname } = useLocation();
  const booked = useBookedCount();
  // the tab of the page being opened is active while it loads; a tapped tab, at once, before its
  // navigation even starts (PaintFirstLink)
  const going = useNavigation().location?.pathname;
  const [tapped, setTapped] = useState<{ key: TabKey; from: string }>();
  useEffect(() => {
    if (going !== undefined) setTapped(undefined);
  }, [going]);
  const active = going !== undefined ? activeTabFor(going) : tapped?.from === pathname ? tapped.key : activeTabFor(pathname);

  const tap = useCallback((key: TabKey) => setTapped({ key, from: pathname }), [pathname]);

  return (
    <Tabbar
      labels
      icons
      className="fixed bottom-0 left-0 z-40 w-full"
      aria-label={t`底部导航`}
      component="nav"
      // one grid column per tab (styles.css): where each tab is drawn does not wait for the others
      data-footer-tabs=""
      data-grid-exempt="the footer's five equal tabs (spec §2), not a layout"
      style={{ '--tabs': FOOTER_TABS.length } as CSSProperties}
    >
      {FOOTER_TABS.map((tab) => (
        <FooterTab
          key={tab.key}
          tab={tab}
          label={i18n._(tab.label)}
          active={active === tab.key}
          badge={tab.key === 'book' && booked > 0 ? (booked > 99 ? '99+' : booked) : undefined}
          onTap={tap}
        />
      ))}
    </Tabbar>
  );
}

/**
 * One tab. Memoised: a tap re-renders the two tabs whose `active` changes, not all five (Konsta's
 * tab computes its classes on every render, and a tap paints its effect first).
 */
const FooterTab = memo(function FooterTab(props: {
  tab: Tab;
  label: string;
  active: boolean;
  badge: number | string | undefined;
  onTap: (key: TabKey) => void;
}) {
  const { tab, label, active, badge, onTap } = props;
  return (
    <TabbarLink
      active={active}
      component={PaintFirstLink}
      linkProps={{ to: tab.to, onTap: () => onTap(tab.key), 'aria-current': active ? 'page' : undefined, 'data-tab': tab.key }}
      label={label}
      icon={
        <Icon
          badge={badge}
          badgeColors={{ bg: 'bg-red-500' }}
          ios={
            <svg aria-hidden width="26" height="26" viewBox="0 0 24 24" {...stroke}>
              {ICONS[tab.key]}
            </svg>
          }
        />
      }
    />
  );
});
