import type { StaffCounts } from '../../../contracts/staff-counts';
import type { Db } from '../../db/client';
import type { KeyAdapter } from '../../gateways/keys/key-adapter';
import type { Locale } from '../../i18n';
import { closingsForStaff } from '../account-closing/account-closing';
import { pendingTeacherRequests } from '../binding/requests';
import { cardRefundsForStaff } from '../cards/refund-staff';
import { transfersForStaff } from '../cards/transfer-staff';
import { complaintsForStaff } from '../complaints/complaints';
import { invoicesForStaff } from '../invoices/invoices';
import { photosToReview } from '../photos';
import { refundsNeedingAttention } from '../refunds/staff';
import { staffWeek } from '../schedule/teacher-schedule';

/** Far above any real queue: the photo list is capped for its page, the count must not be. */
const PHOTO_COUNT_LIMIT = 10_000;

/**
 * Every staff queue's size, read through the queue's own list function with the same scope, so the
 * console's number can never disagree with the page it opens.
 */
export async function staffCounts(db: Db, keys: KeyAdapter, now: Date, staffId: number, locale: Locale): Promise<StaffCounts> {
  // the week first: it catches lapsed deadlines up (a write), the queue reads then run side by side
  const week = await staffWeek(db, now, staffId, undefined, locale);
  const [teacherRequests, photos, transfers, cardRefunds, complaints, invoices, accountClosings, refunds] = await Promise.all([
    pendingTeacherRequests(db),
    photosToReview(db, PHOTO_COUNT_LIMIT),
    transfersForStaff(db, keys),
    cardRefundsForStaff(db),
    complaintsForStaff(db, staffId, locale),
    invoicesForStaff(db, staffId, locale),
    closingsForStaff(db),
    refundsNeedingAttention(db),
  ]);
  return {
    teacherRequests: teacherRequests.length,
    photos: photos.length,
    transfers: transfers.length,
    cardRefunds: cardRefunds.length,
    complaints: complaints.length,
    invoices: invoices.length,
    accountClosings: accountClosings.length,
    refunds: refunds.length,
    declinedClasses: week.counts.declined,
  };
}
