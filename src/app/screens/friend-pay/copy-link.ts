/**
 * Copies a link for the member to paste into a chat: the Clipboard API where the browser allows it,
 * else the link's field is selected (and `execCommand('copy')` tried) so a long press copies it.
 */
export async function copyLink(link: string, field: HTMLInputElement | null): Promise<'copied' | 'selected'> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(link);
      return 'copied';
    }
  } catch {
    // refused (no permission, not a secure page): select it instead
  }
  if (field) {
    field.focus();
    field.select();
    field.setSelectionRange(0, link.length);
    try {
      if (document.execCommand('copy')) return 'copied';
    } catch {
      // older in-app browsers: the selection stays for a long press
    }
  }
  return 'selected';
}
