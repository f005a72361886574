import { book, newCard, newClass, newMember } from '../booking/support';
import { giveCoupon } from '../buying/support';
import { askRefund, boughtCard } from '../cards/refund-support';
import { applyFor, phoneOf, uploadImages } from '../cards/transfer-support';
import { fileComplaint, uploadImage } from '../complaints/support';
import { paidOrder, requestInvoice } from '../invoices/support';
import { create, newGoods } from '../orders/support';
import type { TestServer } from '../support/harness';

/**
 * The hardening tests' cast: member A owns one of everything a member can own (a card, a
 * booking, an unpaid order, a coupon, transfer images and a pending transfer, complaint images and a
 * complaint, a paid order not invoiced and an invoice request; another member a card refund), and member B, the caller, has a card and images of their own.
 */
export async function othersRecords(s: TestServer) {
  const a = await newMember(s);
  const b = await newMember(s);
  const c = await newMember(s);
  const cPhone = await phoneOf(s, c.id);
  const cls = await newClass(s);
  const aCard = await newCard(s, a.id);
  const aBooking = (await book(s, a.token, cls.id, aCard.id)).body.data.bookingId as number;
  const aTransferCard = await newCard(s, a.id);
  const aImages = await uploadImages(s, a.token);
  const aTransfer = (await applyFor(s, a.token, aTransferCard.id, cPhone)).body.data.id as number;
  const aCoupon = (await giveCoupon(s, a.id)).id;
  const aPaidOrder = (await paidOrder(s, a)).id;
  const aInvoice = (await requestInvoice(s, a.token, { orderIds: [(await paidOrder(s, a)).id] })).body.data.id as number;
  const goods = await newGoods(s);
  const aOrder = (await create(s, a.token, { goodsId: goods.id })).body.data.orderNo as string;
  const aComplaintImage = (await uploadImage(s, a.token)).body.data.imageId as number;
  const aFiledImage = (await uploadImage(s, a.token)).body.data.imageId as number;
  const aComplaint = (await fileComplaint(s, a.token, { content: '教室太冷', imageIds: [aFiledImage] })).body.data.id as number;
  const refunder = await boughtCard(s);
  const aRefund = (await askRefund(s, refunder.m.token, refunder.card.id)).body.data.id as number;
  // B's own things, so that only the id under test is someone else's
  const bCard = await newCard(s, b.id);
  const bImages = await uploadImages(s, b.token);
  return {
    a,
    b,
    c,
    cPhone,
    cls,
    aCard,
    aBooking,
    aTransferCard,
    aImages,
    aTransfer,
    aCoupon,
    goods,
    aOrder,
    aComplaintImage,
    aFiledImage,
    aComplaint,
    refunder,
    aRefund,
    bCard,
    bImages,
    aPaidOrder,
    aInvoice,
  };
}
