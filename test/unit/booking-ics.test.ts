import { describe, expect, it } from 'vitest';
import { icsFile } from '../../src/server/services/booking/ics';

describe('the calendar file of a booking (RFC 5545)', () => {
  const base = {
    uid: 'booking-7@yoga-club',
    title: "Evening flow · Jing'an Temple Flagship",
    location: "Jing'an Temple Flagship, 3F, 1788 West Nanjing Road; Jing'an District",
    description: 'Studio A',
    // 23:30 Shanghai on the 21st is 15:30 UTC: the local date and time are written with the TZID
    start: new Date('2026-11-21T15:30:00Z'),
    end: new Date('2026-11-21T16:45:00Z'),
    stamp: new Date('2026-11-20T02:00:00Z'),
  };

  it('writes local start and end with TZID Asia/Shanghai and a +08:00 zone without daylight saving', () => {
    const text = icsFile(base);
    expect(text).toContain('DTSTART;TZID=Asia/Shanghai:20261121T233000\r\n');
    expect(text).toContain('DTEND;TZID=Asia/Shanghai:20261122T004500\r\n');
    expect(text).toContain('TZOFFSETTO:+0800\r\n');
    expect(text).not.toContain('DAYLIGHT');
    expect(text).toContain('DTSTAMP:20261120T020000Z\r\n');
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });

  it('escapes commas and semicolons and folds long lines at 75 octets without splitting a character', () => {
    const text = icsFile({ ...base, location: '上海市静安区南京西路1788号国际中心3楼，靠近地铁2号线静安寺站；'.repeat(3) });
    expect(text).toContain('LOCATION:上海市');
    const lines = text.split('\r\n');
    for (const l of lines) expect(Buffer.byteLength(l)).toBeLessThanOrEqual(75);
    const unfolded = text.replace(/\r\n /g, '');
    expect(unfolded).toContain('靠近地铁2号线静安寺站；上海市');
    expect(icsFile(base).replace(/\r\n /g, '')).toContain(
      "LOCATION:Jing'an Temple Flagship\\, 3F\\, 1788 West Nanjing Road\\; Jing'an District",
    );
  });
});
