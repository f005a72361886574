import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { CAPTCHA_REQUIRED, PASSWORD_CHANGE_REQUIRED, REQUEST_IN_PROGRESS } from './envelope';

/**
 * The one error catalogue (DESIGN.md §4, §7). Server and app both translate a code through this table,
 * so a refusal reads the same on both sides. Booking codes are spec §8's; the rest follow the ranges
 * 10xxx login/account, 30xxx cards, 40xxx orders/payments, 50xxx goods, 60xxx binding, 70xxx other.
 */
export interface ErrorDef {
  readonly code: number;
  readonly http: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 502 | 503;
  readonly message: MessageDescriptor;
}

function def(code: number, http: ErrorDef['http'], message: MessageDescriptor): ErrorDef {
  return { code, http, message };
}

export const Errors = {
  // general
  loginExpired: def(401, 401, msg`当前登录已失效，请重新登录`),
  pleaseLogin: def(70001, 401, msg`请登录`),
  network: def(70002, 503, msg`网络无法连接`),
  invalidField: def(70003, 400, msg`{field} 填写不正确`),
  notFound: def(70004, 404, msg`没有找到`),
  tooLarge: def(70005, 413, msg`提交的内容太大`),
  internal: def(70006, 500, msg`服务器出错了，请稍后再试`),
  idempotencyMismatch: def(70007, 409, msg`重复的请求与第一次的内容不同`),
  forbidden: def(70008, 403, msg`没有权限`),
  imageTooLarge: def(70009, 413, msg`图片太大`),
  requestInProgress: def(REQUEST_IN_PROGRESS, 409, msg`相同的请求正在处理中`),
  unsupportedMedia: def(70011, 415, msg`请求格式不支持`),

  // login and account (DESIGN.md §7)
  wrongAccountOrPassword: def(10001, 400, msg`账号或密码错误`),
  wrongPhoneOrPassword: def(10002, 400, msg`手机号或密码错误`),
  wrongCode: def(10003, 400, msg`验证码错误或已过期`),
  openIdNotBound: def(10004, 400, msg`微信未绑定账号`),
  wrongLoginType: def(10005, 400, msg`登录方式错误`),
  banned: def(10006, 403, msg`该会员已被禁用`),
  codeTooSoon: def(10007, 429, msg`验证码已发送，请{seconds}秒后再试`),
  codeTooMany: def(10008, 429, msg`该手机号获取验证码次数过多，请稍后再试`),
  tooManyFromNetwork: def(10009, 429, msg`请求过于频繁，请稍后再试`),
  invalidPhone: def(10010, 400, msg`请输入正确的手机号`),
  passwordLength: def(10011, 400, msg`密码须为6到15位`),
  resetTicketInvalid: def(10012, 400, msg`重置凭证无效或已过期，请重新验证`),
  samePassword: def(10013, 400, msg`新密码不能与旧密码相同`),
  oldPasswordWrong: def(10014, 400, msg`旧密码错误`),
  tooManyWrongPasswords: def(10015, 429, msg`密码错误次数过多，请稍后再试`),
  // decision 054: an initial password must be replaced before anything else; phone-derived ones are over
  passwordChangeRequired: def(PASSWORD_CHANGE_REQUIRED, 403, msg`请先设置新密码`),
  phonePasswordExpired: def(10017, 403, msg`由手机号组成的密码已失效，请用验证码登录并设置新密码`),
  phonePasswordNotAllowed: def(10018, 400, msg`新密码不能以手机号的后几位结尾`),
  captchaRequired: def(CAPTCHA_REQUIRED, 429, msg`请先完成安全验证`),
  captchaFailed: def(10021, 400, msg`安全验证未通过，请重试`),
  tryLater: def(10022, 429, msg`尝试过于频繁，请{seconds}秒后再试`),
  // closing an account (decision 057): what the member still holds, and the request's own state
  closingLiveCard: def(10030, 409, msg`您还有未用完的会员卡或课程，请先使用、转让或退款后再注销`),
  closingOpenOrder: def(10031, 409, msg`您还有待支付或退款中的订单，请先处理后再注销`),
  closingBalance: def(10032, 409, msg`您的账户还有余额，请先用完或申请退款后再注销`),
  closingLiveBooking: def(10033, 409, msg`您还有未上的预约或排队，请先取消后再注销`),
  closingOpenApplication: def(10034, 409, msg`您还有待审核的转让或退款申请，请等待处理后再注销`),
  closingPending: def(10035, 409, msg`注销申请已提交，请等待门店处理`),
  closingNotPending: def(10036, 409, msg`该注销申请已处理或已撤回`),
  closingReasonEmpty: def(10037, 400, msg`请填写拒绝原因`),

  // booking (spec §8, codes as given; 20009 is ours: the member's own booking window)
  bookingFailed: def(20001, 409, msg`预约失败`),
  bookingLimit: def(20002, 409, msg`预约人数已达上限`),
  cardInvalid: def(20003, 400, msg`会员卡无效`),
  noUsesLeft: def(20004, 400, msg`会员卡没有可用次数`),
  cardExpired: def(20005, 400, msg`会员卡已失效或已过期，请重新购买`),
  alreadyBooked: def(20006, 409, msg`您已预约过该课程`),
  classStarted: def(20007, 409, msg`课程已开始`),
  classExpired: def(20008, 409, msg`课程已过期，不能取消预约或排队`),
  notOpenYet: def(20009, 400, msg`该课程还未开放预约`),
  beyondBenefits: def(20010, 400, msg`超出会员卡权益范围`),
  weekendOnly: def(20011, 400, msg`周末卡仅限周末预约`),
  offPeakOnly: def(20012, 400, msg`闲时卡仅限在规定时段预约`),
  cardLevelMismatch: def(20013, 400, msg`会员卡级别与课程不符`),
  invalidMemberCard: def(20020, 400, msg`无效的会员卡`),
  withinTwoDays: def(20021, 400, msg`只能预约两天内的课程`),
  withinSevenDays: def(20022, 400, msg`只能预约七天内的课程`),
  overlapping: def(20030, 409, msg`与已预约的课程时间冲突`),
  experienceSelf: def(20031, 400, msg`体验卡不能本人使用`),

  // 30xxx cards (the card chart: machines/domain/card.machine.ts)
  cardStatusForbids: def(30001, 409, msg`会员卡当前状态不能进行此操作`),
  // spec §8 cards, for the operations still to come (family sub-card holders, gift givers; transfer and refund applications)
  cardNotOwner: def(30002, 403, msg`您不是这张会员卡的持有人`),
  freezeStatusForbids: def(30003, 409, msg`会员卡当前状态不能冻结`),
  cardApplicationPending: def(30004, 409, msg`这张会员卡有未完成的申请`),
  cardBookingsDuringFreeze: def(30005, 409, msg`冻结期间有已预约或正在上的课程，请先取消预约`),
  freezeEndBeforeStart: def(30006, 400, msg`结束日期不能早于开始日期`),
  freezeStartPast: def(30007, 400, msg`冻结开始日期不能早于今天`),
  freezeTooLong: def(30008, 400, msg`冻结时间超过了允许的最长天数`),
  freezeAfterValidity: def(30009, 400, msg`冻结开始日期已超出会员卡有效期`),
  cardInactive: def(30010, 409, msg`会员卡未激活`),
  cardIsInvalid: def(30011, 409, msg`会员卡已失效`),
  cardIsExpired: def(30012, 409, msg`会员卡已过期`),
  cardIsTransferred: def(30013, 409, msg`会员卡已转让`),
  cardIsFrozen: def(30014, 409, msg`会员卡已冻结`),
  freezePlanned: def(30016, 409, msg`这张会员卡已有待开始的冻结`),
  cardNotFrozen: def(30017, 409, msg`会员卡没有冻结`),
  // extension (decision 024: the card type's rules)
  extensionNotAllowed: def(30020, 409, msg`该卡种不能延期`),
  extensionLimitReached: def(30021, 409, msg`这张会员卡的延期次数已用完`),
  extensionNotLater: def(30022, 400, msg`延期日期须晚于当前到期日期`),
  extensionTooLong: def(30023, 400, msg`延期天数超过了该卡种允许的上限`),
  extensionInPast: def(30024, 400, msg`延期后的到期日期不能早于今天`),
  // transfer (spec §5, §8 cards, §9; decision 026)
  transferWindow: def(30030, 409, msg`团购结束后3天内不能转让，如有疑问请致电门店 {phone}`),
  groupPurchaseNotOver: def(30031, 409, msg`团购期内的会员卡不能转让，如有疑问请致电门店 {phone}`),
  transferOnlyOnce: def(30032, 409, msg`每张会员卡只能转让一次，转让得到的会员卡不能再转让`),
  transferToSelf: def(30033, 409, msg`不能转让给自己`),
  sharedMainCardNotTransferable: def(30034, 409, msg`亲情卡不能转让`),
  transferBookingsAhead: def(30035, 409, msg`这张会员卡还有已预约或正在上的课程，请先取消预约`),
  noSuchMember: def(30036, 404, msg`没有这个会员`),
  transferNotInState: def(30037, 409, msg`该转让申请当前状态不能这样处理`),
  // refund (spec §5, §8 cards; decision 030)
  refundNotAllowed: def(30040, 409, msg`该卡种不能退款`),
  refundNotBought: def(30041, 409, msg`这张会员卡不是您购买的，不能退款`),
  refundNothingLeft: def(30042, 409, msg`这张会员卡没有可退的金额`),
  refundBookingsAhead: def(30043, 409, msg`这张会员卡还有已预约或正在上的课程，请先取消预约`),
  cardRefundNotInState: def(30044, 409, msg`该退款申请当前状态不能这样处理`),
  // change of adviser (spec §4, §5 "needs club and adviser"; decision 034)
  adviserClubRequired: def(30045, 400, msg`请选择门店`),
  adviserRequired: def(30046, 400, msg`请选择顾问`),
  adviserClubNotFound: def(30047, 404, msg`没有这个门店`),
  adviserNotInClub: def(30048, 404, msg`该门店没有这位顾问`),
  adviserUnchanged: def(30049, 409, msg`这位顾问已是这张会员卡的顾问`),
  // family sub cards and gift cards (decision 040)
  familyNotMainCard: def(30050, 409, msg`这张会员卡不能添加副卡`),
  familyFull: def(30051, 409, msg`这张主卡的副卡已满`),
  familyToSelf: def(30052, 409, msg`不能把自己添加为副卡持有人`),
  familyAlready: def(30053, 409, msg`该会员已是这张会员卡的副卡持有人`),
  familySubBookingsAhead: def(30054, 409, msg`该副卡持有人还有已预约或排队中的课程，请先取消`),
  familySubNotFound: def(30055, 404, msg`这张会员卡没有这位副卡持有人`),
  giftNotAllowed: def(30056, 409, msg`这张会员卡不能赠送`),
  giftToSelf: def(30057, 409, msg`不能赠送给自己`),
  giftUsed: def(30058, 409, msg`只有未使用的会员卡可以赠送`),
  familyShared: def(30059, 409, msg`这张主卡还有副卡持有人，请先解除副卡`),

  // 40xxx orders and payments
  unpaidOrderExists: def(40001, 409, msg`您有未支付的订单，请先支付或取消`),
  orderNotPayable: def(40002, 409, msg`订单当前状态不能支付`),
  orderNotCancellable: def(40003, 409, msg`订单当前状态不能取消`),
  balanceNotEnough: def(40004, 409, msg`余额不足`),
  payMethodUnavailable: def(40005, 400, msg`该支付方式暂不可用`),
  paymentProviderFailed: def(40006, 502, msg`支付服务暂时不可用，请稍后再试`),
  couponNotUsable: def(40007, 409, msg`该优惠券不可用`),
  couponMinSpend: def(40008, 409, msg`未达到优惠券的使用门槛`),
  orderExpired: def(40009, 409, msg`订单已超时取消，请重新下单`),
  priceChanged: def(40010, 409, msg`价格计算有变化，请确认后重新提交`),
  orderAlreadyPaid: def(40011, 409, msg`订单已支付，请勿重复支付`),
  wechatPayNeedsOpenId: def(40012, 409, msg`请在微信中打开并登录后使用微信支付`),
  userMissing: def(40013, 403, msg`该会员不存在或已被禁用`),
  orderCancelled: def(40014, 409, msg`订单已取消`),
  orderAlreadySplit: def(40015, 409, msg`订单已拆分`),
  splitTooMany: def(40016, 400, msg`最多拆分为 10 份`),
  splitPartTooLarge: def(40017, 400, msg`每份金额须大于 0 且小于应付金额`),
  friendAlreadyActed: def(40018, 409, msg`已有好友在为这笔款项付款或已付款`),
  friendPayNeedsAuthorization: def(40019, 403, msg`好友代付需要在微信中授权后才能使用`),
  friendPayNotNeeded: def(40020, 409, msg`余额已抵扣全部金额，无需好友代付`),
  refundFailedAfterCancel: def(40021, 409, msg`订单已取消，但退款未成功，我们正在处理`),
  invitationOver: def(40022, 409, msg`代付邀请已失效`),
  refundNotInState: def(40023, 409, msg`该退款当前状态不能这样处理`),
  // 50xxx goods
  goodsNotChosen: def(50001, 400, msg`请选择商品`),
  goodsOffShelf: def(50002, 409, msg`商品已下架`),
  goodsSoldOut: def(50003, 409, msg`手速不够快，商品已被抢光了`),
  goodsNewCustomersOnly: def(50004, 409, msg`该商品仅限新客户购买`),
  goodsLimitPerPerson: def(50005, 409, msg`该商品每人限购一次`),
  goodsOutOfStock: def(50006, 409, msg`商品库存不足`),
  goodsPhaseRequired: def(50007, 400, msg`请选择课程阶段`),
  goodsTeacherRequired: def(50008, 400, msg`请选择老师`),
  // flash sale (50020+): a buyer who passed the sold-out check but lost the last place; the sale's window
  flashSaleTooSlow: def(50020, 409, msg`您慢了一步，最后的名额刚刚被抢光了`),
  flashSaleNotStarted: def(50021, 409, msg`抢购还没有开始`),
  flashSaleEnded: def(50022, 409, msg`抢购已经结束`),

  // 6005x teacher schedule (decision 029; the binding codes are 6000x)
  scheduleNotWaiting: def(60050, 409, msg`这节课现在不在等待您确认`),
  scheduleClassStarted: def(60051, 409, msg`课程已开始，不能再更改老师安排`),

  // 7004x check-in and photo review (spec §8 other: check-in errors, image too large; decision 007)
  // binding (spec §8 binding, decision 028)
  emptyOpenId: def(60001, 400, msg`没有取得微信身份（open id 为空），请重新进入以授权`),
  bindCodeMissing: def(60002, 400, msg`请填写绑定码`),
  bindCodeInvalid: def(60003, 400, msg`绑定码无效，请核对后再试`),
  bindCodeExpired: def(60004, 400, msg`绑定码已过期，请联系门店重新获取`),
  teacherMissing: def(60005, 404, msg`没有找到这位老师`),
  openIdAlreadyBound: def(60006, 409, msg`这个微信已经绑定了账号`),
  accountAlreadyBound: def(60007, 409, msg`该老师或员工账号已经绑定了微信`),
  bindFailed: def(60008, 409, msg`绑定失败，请重试`),
  bindQueryFailed: def(60009, 503, msg`查询绑定信息失败，请重试`),
  fillForm: def(60010, 400, msg`请填写完整：{field}`),
  wrongStaffCredentials: def(60011, 400, msg`用户名或密码错误`),
  bindInfoWrong: def(60012, 409, msg`绑定信息有误`),
  teacherRequestPending: def(60013, 409, msg`申请已提交，请等待门店确认`),
  teacherRequestDecided: def(60014, 409, msg`这份申请已经处理过了`),

  checkinNotBooked: def(70040, 409, msg`您没有预约这节课，不能签到`),
  checkinAlready: def(70041, 409, msg`您已签到，无需重复签到`),
  checkinNoUses: def(70042, 409, msg`会员卡没有剩余次数，不能签到`),
  checkinClosed: def(70043, 409, msg`现在不在这节课的签到时间内`),
  checkinCodeWrong: def(70044, 400, msg`签到码无效，请扫描本节课的签到码`),
  photoUploadClosed: def(70045, 409, msg`照片已提交，如需更换请联系门店工作人员`),
  photoAlreadyReviewed: def(70046, 409, msg`这张照片已经审核过了`),
  photoType: def(70047, 415, msg`仅支持 JPG、PNG 或 WebP 格式的图片`),
  checkinLinkExpired: def(70048, 409, msg`签到二维码已过期，请扫描老师手机上最新的二维码`),
  // the avatar (decision 042: 70170-70179)
  photoNotPassed: def(70170, 409, msg`只有已通过审核的照片才能允许重新上传`),
  photoStorageDown: def(70171, 503, msg`照片暂时无法保存，请稍后再试`),

  // complaints and activities (decision 033)
  complaintContentEmpty: def(70140, 400, msg`请填写投诉内容`),
  complaintNotInState: def(70141, 409, msg`该投诉当前状态不能这样处理`),
  complaintTooManyPhotos: def(70142, 400, msg`一条投诉最多附3张照片`),
  complaintPhotoUnusable: def(70143, 400, msg`照片无效或已用于其他投诉，请重新上传`),
  complaintReplyEmpty: def(70144, 400, msg`请填写回复内容`),
  activityNoSignup: def(70150, 409, msg`该活动不需要报名`),
  activityFull: def(70151, 409, msg`活动名额已满`),
  activityAlreadySigned: def(70152, 409, msg`您已报名该活动`),
  activityClosed: def(70153, 409, msg`活动已结束，不能报名`),
  // staff create, edit and cancel classes (decision 041: 70160-70169)
  classEndBeforeStart: def(70160, 400, msg`下课时间要晚于上课时间`),
  classStartPassed: def(70161, 400, msg`上课时间已经过去，请选择以后的时间`),
  classCapacityRange: def(70162, 400, msg`人数上限应在1到200之间`),
  classRoomTaken: def(70163, 409, msg`这个教室在这段时间已经有课了`),
  classCapacityBelowBooked: def(70164, 409, msg`人数上限不能少于已预约的人数`),
  classStartedNoChange: def(70165, 409, msg`课程已开始，不能再修改或取消`),
  classClubNotYours: def(70166, 403, msg`您不负责这家门店，不能在这里排课`),
  classAlreadyCancelled: def(70167, 409, msg`这节课已经取消了`),
  // members registered by staff at the front desk (decision 045)
  memberPhoneTaken: def(70168, 409, msg`这个手机号已经是会员了，请直接用它登录`),
  memberNameInvalid: def(70169, 400, msg`请填写会员姓名（不超过20个字，不能是数字）`),
  // invoices (decision 044: 70180-70189)
  invoiceTitleEmpty: def(70180, 400, msg`请填写发票抬头`),
  taxNumberFormat: def(70181, 400, msg`纳税人识别号应为18位统一社会信用代码`),
  taxNumberCheckDigit: def(70182, 400, msg`纳税人识别号校验位不正确，请核对`),
  invoiceAddressEmpty: def(70183, 400, msg`请填写地址`),
  invoicePhoneInvalid: def(70184, 400, msg`请输入正确的电话号码（手机或带区号的座机）`),
  invoiceBankAccountInvalid: def(70185, 400, msg`银行账号应为8到30位数字`),
  invoiceOrderNotPaid: def(70186, 409, msg`所选订单未支付或已退款，不能开发票`),
  invoiceOrderInvoiced: def(70187, 409, msg`所选订单已开过或正在申请发票`),
  invoiceNotInState: def(70188, 409, msg`该发票申请当前状态不能这样处理`),
  invoiceReasonEmpty: def(70189, 400, msg`请填写拒绝开票的原因`),
  // personal information and coupon gifting (decision 032: 70100-70139)
  realNameInvalid: def(70100, 400, msg`请填写真实姓名（不超过20个字，不能是数字）`),
  idNumberFormat: def(70101, 400, msg`身份证号应为18位（最后一位可以是X）`),
  idNumberBirthDate: def(70102, 400, msg`身份证号中的出生日期不正确`),
  idNumberCheckDigit: def(70103, 400, msg`身份证号校验位不正确，请核对`),
  identityLocked: def(70104, 409, msg`姓名和身份证号已用于转卡或退卡，如需修改请联系门店工作人员`),
  recipientIdentityMismatch: def(70105, 400, msg`受让人的姓名或身份证号与其登记的个人信息不一致`),
  couponNotGiftable: def(70110, 409, msg`这张优惠券不能赠送（已使用、已过期或已转赠）`),
  couponGiftLimit: def(70111, 409, msg`优惠券转赠次数已达上限`),
  couponGiftToSelf: def(70112, 400, msg`不能把优惠券赠送给自己`),

  // 70xxx other (catalogue)
  surveyAnswered: def(70020, 409, msg`您已经回答过这份问卷`),
  tooManyRequests: def(70021, 429, msg`操作过于频繁，请稍后再试`),
} as const satisfies Record<string, ErrorDef>;

export type ErrorName = keyof typeof Errors;

const byCode = new Map<number, ErrorDef>(Object.values(Errors).map((e) => [e.code, e]));

/** Looks a refusal up by the code the server sent; unknown codes fall back to the generic message. */
export function errorByCode(code: number): ErrorDef | undefined {
  return byCode.get(code);
}

/** All codes, for the tests that check each one is unique and translated. */
export function allErrors(): ErrorDef[] {
  return Object.values(Errors);
}

/** 20030 as the server words it when it knows the booking: which class, at what time. */
export const OVERLAPPING_WITH = msg`与已预约的「{title}」（{time}）时间冲突`;

/** 70009 as the server words it: the photo's limit named ("512 KB"), so the member knows what to send. */
export const IMAGE_TOO_LARGE_LIMIT = msg`图片太大，不能超过 {limit}`;
