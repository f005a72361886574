/**
 * Card transfer rules shared by the server and the app (spec §3, §5, §9; decision 026). Pure: no
 * imports of ours.
 */

/** The stored states of a transfer application (the transfer chart's; the state-checks test keeps them equal). */
export const TRANSFER_STATE_VALUES = ['pending', 'reviewing', 'approved', 'rejected', 'cancelled'] as const;

/** Spec §9: a group-buy card is not transferable until this many days after its group period ends. */
export const TRANSFER_GROUP_WINDOW_DAYS = 3;

/** What the phone lookup shows of a member's name: every character but the last masked (`*明`, `**明`), so a phone never reveals a whole name. */
export function maskName(name: string | null): string {
  const chars = [...(name ?? '').trim()];
  if (chars.length === 0) return '*';
  if (chars.length === 1) return '*';
  return '*'.repeat(chars.length - 1) + chars.at(-1)!;
}

/** What another member is shown of a phone: the first three and last four digits (`138****0002`). */
export const maskPhone = (phone: string) => (phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****');

/**
 * Whether a card may go to the member with `phone`: never to oneself (the server's 30033, said at the
 * phone field before the lookup and the uploads). `ownPhone` null: not known, the server decides.
 */
export function transferRecipientRefusal(phone: string, ownPhone: string | null): 'transferToSelf' | null {
  return ownPhone !== null && phone.trim() === ownPhone.trim() ? 'transferToSelf' : null;
}
