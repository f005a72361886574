/**
 * Card transfer rules shared by the server and the app (spec §3, §5, §9; decision 026). Pure: no
 * imports of ours.
 */

/** The stored states of a transfer application (the transfer chart's; the state-checks test keeps them equal). */
export const TRANSFER_STATE_VALUES = ['pending', 'reviewing', 'approved', 'rejected', 'cancelled'] as const;

/** Spec §9: a group-buy card is not transferable until this many days after its group period ends. */
export const TRANSFER_GROUP_WINDOW_DAYS = 3;

/** Spec §5 name: required, at most 20 characters, not numeric (as the real name of personal information). */
export function validRecipientName(name: string): boolean {
  const n = name.trim();
  return n.length > 0 && n.length <= 20 && !/^\d+$/.test(n);
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** A well-formed 18-digit resident ID number (GB 11643: a real birth date and the check character). */
export function validIdNumber(id: string): boolean {
  const s = id.trim().toUpperCase();
  if (!/^\d{17}[\dX]$/.test(s)) return false;
  const birth = `${s.slice(6, 10)}-${s.slice(10, 12)}-${s.slice(12, 14)}`;
  const t = Date.parse(`${birth}T00:00:00Z`);
  if (!Number.isFinite(t) || new Date(t).toISOString().slice(0, 10) !== birth || s.slice(6, 8) < '19') return false;
  const sum = ID_WEIGHTS.reduce((acc, w, i) => acc + w * Number(s[i]), 0);
  return ID_CHECK[sum % 11] === s[17];
}

/** What the phone lookup shows of a member's name: every character but the last masked (`*明`, `**明`), so a phone never reveals a whole name. */
export function maskName(name: string | null): string {
  const chars = [...(name ?? '').trim()];
  if (chars.length === 0) return '*';
  if (chars.length === 1) return '*';
  return '*'.repeat(chars.length - 1) + chars.at(-1)!;
}
