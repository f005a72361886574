import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Banner } from '../../../../api/catalog';

const ADVANCE_MS = 4000;

/**
 * The Homepage carousel: native scroll-snap (swipes work before any script), one slide advancing every
 * 4 s once hydrated, paused while a finger is on it. The box has the images' ratio, so no shift.
 */
export function BannerCarousel(props: { banners: Banner[] }) {
  const { banners } = props;
  const track = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const touching = useRef(false);

  useEffect(() => {
    const el = track.current;
    if (!el || banners.length < 2) return;
    const timer = setInterval(() => {
      if (touching.current || document.hidden) return;
      const next = (Math.round(el.scrollLeft / el.clientWidth) + 1) % banners.length;
      el.scrollTo({ left: next * el.clientWidth, behavior: 'smooth' });
    }, ADVANCE_MS);
    return () => clearInterval(timer);
  }, [banners.length]);

  if (banners.length === 0) return null;
  return (
    <div className="relative mx-4 mt-3 overflow-hidden rounded-xl bg-black/5">
      <div
        ref={track}
        className="flex aspect-[750/320] snap-x snap-mandatory overflow-x-auto [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
        onScroll={(e) => setIndex(Math.round(e.currentTarget.scrollLeft / Math.max(1, e.currentTarget.clientWidth)))}
        onTouchStart={() => (touching.current = true)}
        onTouchEnd={() => (touching.current = false)}
      >
        {banners.map((b, i) => {
          const img = (
            <img
              src={b.image}
              alt={b.title}
              width={750}
              height={320}
              loading={i === 0 ? 'eager' : 'lazy'}
              fetchPriority={i === 0 ? 'high' : undefined}
              decoding="async"
              className="block h-full w-full object-cover"
            />
          );
          return (
            <div key={b.id} className="relative w-full shrink-0 snap-start">
              {b.link?.startsWith('/') ? <Link to={b.link}>{img}</Link> : img}
              <span className="pointer-events-none absolute bottom-2 left-3 max-w-[80%] truncate text-sm font-semibold text-white drop-shadow">
                {b.title}
              </span>
            </div>
          );
        })}
      </div>
      {banners.length > 1 && (
        <div aria-hidden className="pointer-events-none absolute right-3 bottom-2.5 flex gap-1">
          {banners.map((b, i) => (
            <span key={b.id} className={`h-1.5 rounded-full bg-white transition-all ${i === index ? 'w-4' : 'w-1.5 opacity-60'}`} />
          ))}
        </div>
      )}
    </div>
  );
}
