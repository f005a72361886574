import { shanghaiFormat } from '../../../domain/time';

/**
 * An iCalendar file for one booking (RFC 5545): title, club address, start and end in Asia/Shanghai
 * (a VTIMEZONE for +08:00, no daylight saving), so phones add it to the calendar at the right hour.
 */
export interface IcsEvent {
  uid: string;
  title: string;
  location: string;
  description: string;
  start: Date;
  end: Date;
  stamp: Date;
}

/** Escapes TEXT values (backslash, semicolon, comma, newline). */
function text(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Local wall time in Shanghai, "YYYYMMDDTHHMMSS". */
function local(at: Date): string {
  return shanghaiFormat(at, 'YYYYMMDD[T]HHmmss');
}

function utc(at: Date): string {
  return `${at.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
}

/** Folds lines longer than 75 octets (RFC 5545 §3.1), never splitting a UTF-8 character. */
function fold(line: string): string {
  const out: string[] = [];
  let cur = '';
  let bytes = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > 75) {
      out.push(cur);
      cur = ' ';
      bytes = 1;
    }
    cur += ch;
    bytes += n;
  }
  out.push(cur);
  return out.join('\r\n');
}

export function icsFile(e: IcsEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Yoga club//Member app//ZH',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VTIMEZONE',
    'TZID:Asia/Shanghai',
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    'TZOFFSETFROM:+0800',
    'TZOFFSETTO:+0800',
    'TZNAME:CST',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `DTSTAMP:${utc(e.stamp)}`,
    `DTSTART;TZID=Asia/Shanghai:${local(e.start)}`,
    `DTEND;TZID=Asia/Shanghai:${local(e.end)}`,
    `SUMMARY:${text(e.title)}`,
    `LOCATION:${text(e.location)}`,
    `DESCRIPTION:${text(e.description)}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
